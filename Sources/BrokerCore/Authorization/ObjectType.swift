/// A HealthKit data type, named by its HealthKit identifier (e.g. `HKQuantityTypeIdentifierStepCount`).
///
/// Any identifier can be held; `TypeCatalogue` says which ones the broker knows.
public struct ObjectType: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The HealthKit identifier.
    public let identifier: String

    /// Wraps an identifier.
    public init(_ identifier: String) {
        self.identifier = identifier
    }

    /// Orders by identifier.
    public static func < (lhs: ObjectType, rhs: ObjectType) -> Bool { lhs.identifier < rhs.identifier }

    /// The identifier.
    public var description: String { identifier }
}

extension ObjectType {
    /// Steps (cumulative count).
    public static let stepCount = ObjectType("HKQuantityTypeIdentifierStepCount")
    /// Heart rate (discrete, count/min).
    public static let heartRate = ObjectType("HKQuantityTypeIdentifierHeartRate")
    /// Resting heart rate (discrete, count/min).
    public static let restingHeartRate = ObjectType("HKQuantityTypeIdentifierRestingHeartRate")
    /// Active energy (cumulative, energy).
    public static let activeEnergyBurned = ObjectType("HKQuantityTypeIdentifierActiveEnergyBurned")
    /// Resting energy (cumulative, energy).
    public static let basalEnergyBurned = ObjectType("HKQuantityTypeIdentifierBasalEnergyBurned")
    /// Walking and running distance (cumulative, length).
    public static let distanceWalkingRunning = ObjectType("HKQuantityTypeIdentifierDistanceWalkingRunning")
    /// Flights climbed (cumulative count).
    public static let flightsClimbed = ObjectType("HKQuantityTypeIdentifierFlightsClimbed")
    /// Body mass (discrete, mass).
    public static let bodyMass = ObjectType("HKQuantityTypeIdentifierBodyMass")
    /// Body fat percentage (discrete, percent).
    public static let bodyFatPercentage = ObjectType("HKQuantityTypeIdentifierBodyFatPercentage")
    /// Blood oxygen saturation (discrete, percent).
    public static let oxygenSaturation = ObjectType("HKQuantityTypeIdentifierOxygenSaturation")
    /// Sleep analysis (category).
    public static let sleepAnalysis = ObjectType("HKCategoryTypeIdentifierSleepAnalysis")
    /// Mindful sessions (category).
    public static let mindfulSession = ObjectType("HKCategoryTypeIdentifierMindfulSession")
    /// Workouts.
    public static let workout = ObjectType("HKWorkoutTypeIdentifier")
    /// Date of birth (characteristic: read-only).
    public static let dateOfBirth = ObjectType("HKCharacteristicTypeIdentifierDateOfBirth")
    /// Biological sex (characteristic: read-only).
    public static let biologicalSex = ObjectType("HKCharacteristicTypeIdentifierBiologicalSex")
    /// Blood type (characteristic: read-only).
    public static let bloodType = ObjectType("HKCharacteristicTypeIdentifierBloodType")
}
