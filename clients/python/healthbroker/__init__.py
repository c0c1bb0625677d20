"""HealthBroker's Python client: ``HealthStore`` for apps, ``BrokerAdmin`` for the admin socket.

Pure Python over Google's protobuf runtime; ``healthbroker_pb2`` is generated from
``proto/healthbroker.proto`` by ``clients/python/generate.sh``. Calls are synchronous and
thread-safe; one background reader thread per connection lets many calls be in flight at once
(see ``_connection`` for the threading model, flow control and cancel).
"""

from ._connection import BrokerStream, Connection
from .admin import (
    BrokerAdmin,
    ConsentAgent,
    Grant,
    Prompt,
    PromptResolved,
    ReadDecision,
    ShareDecision,
    TypeDecision,
    default_admin_socket,
)
from .errors import BrokerError, DomainCode, StatusCode
from .model import (
    ACTIVE_ENERGY,
    BLOOD_PRESSURE,
    BLOOD_PRESSURE_DIASTOLIC,
    BLOOD_PRESSURE_SYSTOLIC,
    DISTANCE_WALKING_RUNNING,
    FOOD,
    HEART_RATE,
    SLEEP_ANALYSIS,
    STEP_COUNT,
    WORKOUT,
    AnchoredResult,
    AuthorizationStatus,
    Correlation,
    DeletedObject,
    Interval,
    ObserveEvent,
    Quantity,
    QueryOptions,
    RequestStatus,
    Sample,
    SaveResult,
    SessionInfo,
    SortKey,
    Statistics,
    StatisticsBucket,
    StatisticsOptions,
    Workout,
    new_uuid,
)
from .store import HealthStore, default_app_socket

__all__ = [
    "ACTIVE_ENERGY", "BLOOD_PRESSURE", "BLOOD_PRESSURE_DIASTOLIC", "BLOOD_PRESSURE_SYSTOLIC", "DISTANCE_WALKING_RUNNING",
    "FOOD", "HEART_RATE", "SLEEP_ANALYSIS", "STEP_COUNT", "WORKOUT",
    "AnchoredResult", "AuthorizationStatus", "Correlation", "BrokerAdmin", "BrokerError", "BrokerStream", "Connection",
    "ConsentAgent", "DeletedObject", "DomainCode", "Grant", "HealthStore", "Interval", "ObserveEvent",
    "Prompt", "PromptResolved", "Quantity", "QueryOptions", "ReadDecision", "RequestStatus", "Sample", "SaveResult",
    "SessionInfo", "ShareDecision", "SortKey", "Statistics", "StatisticsBucket", "StatisticsOptions",
    "StatusCode", "TypeDecision", "Workout", "default_admin_socket", "default_app_socket", "new_uuid",
]
