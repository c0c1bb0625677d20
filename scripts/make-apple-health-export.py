#!/usr/bin/env python3
"""Writes a synthetic Apple Health export (export.xml, or export.zip holding apple_health_export/export.xml).

Nobody's data: every value comes from a seeded generator. The layout follows Apple's format: the inline
DTD, ExportDate, Me (characteristics), Records of three sources (an iPhone, an Apple Watch and an app),
blood-pressure and food Correlations (whose member Records also appear on their own, as Apple writes
them), Workouts (totals as attributes, or as WorkoutStatistics), ActivitySummary elements, and Records of
types the broker does not know. Dates carry local UTC offsets: the phone and watch write America/New_York
time (-0500, and -0400 after the DST change), the app writes +0000 or +0100.

One Record per line, so tests can compute their own totals with a plain line scan.

  scripts/make-apple-health-export.py --records 100000 --output /tmp/export.zip
"""
import argparse
import datetime as dt
import random
import sys
import zipfile
from zoneinfo import ZoneInfo

DTD = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE HealthData [
<!-- HealthKit Export Version: 13 -->
<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
<!ATTLIST HealthData
  locale CDATA #REQUIRED
>
<!ELEMENT ExportDate EMPTY>
<!ATTLIST ExportDate
  value CDATA #REQUIRED
>
<!ELEMENT Me EMPTY>
<!ATTLIST Me
  HKCharacteristicTypeIdentifierDateOfBirth         CDATA #REQUIRED
  HKCharacteristicTypeIdentifierBiologicalSex       CDATA #REQUIRED
  HKCharacteristicTypeIdentifierBloodType           CDATA #REQUIRED
  HKCharacteristicTypeIdentifierFitzpatrickSkinType CDATA #REQUIRED
  HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse CDATA #IMPLIED
  HKCharacteristicTypeIdentifierWheelchairUse       CDATA #IMPLIED
>
<!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
<!ATTLIST Record
  type          CDATA #REQUIRED
  unit          CDATA #IMPLIED
  value         CDATA #IMPLIED
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!-- Note: Any Records that appear as children of a correlation also appear as top-level records in this document. -->
<!ELEMENT Correlation ((MetadataEntry|Record)*)>
<!ATTLIST Correlation
  type          CDATA #REQUIRED
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!ELEMENT Workout ((MetadataEntry|WorkoutEvent|WorkoutRoute|WorkoutStatistics)*)>
<!ATTLIST Workout
  workoutActivityType   CDATA #REQUIRED
  duration              CDATA #IMPLIED
  durationUnit          CDATA #IMPLIED
  totalDistance         CDATA #IMPLIED
  totalDistanceUnit     CDATA #IMPLIED
  totalEnergyBurned     CDATA #IMPLIED
  totalEnergyBurnedUnit CDATA #IMPLIED
  sourceName            CDATA #REQUIRED
  sourceVersion         CDATA #IMPLIED
  device                CDATA #IMPLIED
  creationDate          CDATA #IMPLIED
  startDate             CDATA #REQUIRED
  endDate               CDATA #REQUIRED
>
<!ELEMENT WorkoutStatistics EMPTY>
<!ATTLIST WorkoutStatistics
  type                  CDATA #REQUIRED
  startDate             CDATA #REQUIRED
  endDate               CDATA #REQUIRED
  average               CDATA #IMPLIED
  minimum               CDATA #IMPLIED
  maximum               CDATA #IMPLIED
  sum                   CDATA #IMPLIED
  unit                  CDATA #IMPLIED
>
<!ELEMENT WorkoutEvent ((MetadataEntry)*)>
<!ATTLIST WorkoutEvent
  type                  CDATA #REQUIRED
  date                  CDATA #REQUIRED
  duration              CDATA #IMPLIED
  durationUnit          CDATA #IMPLIED
>
<!ELEMENT MetadataEntry EMPTY>
<!ATTLIST MetadataEntry
  key   CDATA #REQUIRED
  value CDATA #REQUIRED
>
<!ELEMENT ActivitySummary EMPTY>
<!ATTLIST ActivitySummary
  dateComponents           CDATA #IMPLIED
  activeEnergyBurned       CDATA #IMPLIED
  activeEnergyBurnedGoal   CDATA #IMPLIED
  activeEnergyBurnedUnit   CDATA #IMPLIED
  appleExerciseTime        CDATA #IMPLIED
  appleExerciseTimeGoal    CDATA #IMPLIED
  appleStandHours          CDATA #IMPLIED
  appleStandHoursGoal      CDATA #IMPLIED
>
]>
"""

PHONE = ("Alex\u2019s iPhone", "17.4", '&lt;&lt;HKDevice: 0x300c1a0&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone15,2, software:17.4&gt;')
WATCH = ("Alex\u2019s Apple\u00a0Watch", "10.4", '&lt;&lt;HKDevice: 0x300c1b0&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,1, software:10.4&gt;')
APP = ("Sleep &amp; Scale", "3.2.1", None)
NEW_YORK = ZoneInfo("America/New_York")
SLEEP = ["HKCategoryValueSleepAnalysisInBed", "HKCategoryValueSleepAnalysisAsleepCore",
         "HKCategoryValueSleepAnalysisAsleepDeep", "HKCategoryValueSleepAnalysisAsleepREM",
         "HKCategoryValueSleepAnalysisAwake"]


def stamp(instant, zone):
    """`2024-03-10 18:52:09 -0400`: the instant in `zone` (a ZoneInfo or a fixed offset in minutes)."""
    if isinstance(zone, int):
        local = instant.astimezone(dt.timezone(dt.timedelta(minutes=zone)))
    else:
        local = instant.astimezone(zone)
    return local.strftime("%Y-%m-%d %H:%M:%S %z")


class Writer:
    def __init__(self, out, records):
        self.out = out
        self.target = records
        self.count = 0

    def attrs(self, source, zone, start, end):
        name, version, device = source
        text = f'sourceName="{name}" sourceVersion="{version}"'
        if device:
            text += f' device="{device}"'
        created = end + dt.timedelta(seconds=7)
        return text + f' creationDate="{stamp(created, zone)}" startDate="{stamp(start, zone)}" endDate="{stamp(end, zone)}"'

    def record(self, kind, unit, value, source, zone, start, end, metadata=None, indent=" "):
        unit_attr = f' unit="{unit}"' if unit is not None else ""
        head = f'{indent}<Record type="{kind}"{unit_attr} value="{value}" {self.attrs(source, zone, start, end)}'
        self.count += 1
        if not metadata:
            self.out.write(head + "/>\n")
            return
        self.out.write(head + ">\n")
        for key, val in metadata:
            self.out.write(f'{indent} <MetadataEntry key="{key}" value="{val}"/>\n')
        self.out.write(f"{indent}</Record>\n")


def generate(out, records, seed, start_day):
    rng = random.Random(seed)
    w = Writer(out, records)
    base = dt.datetime.combine(start_day, dt.time(0, 0), tzinfo=NEW_YORK).astimezone(dt.timezone.utc)
    out.write(DTD)
    out.write('<HealthData locale="en_US">\n')
    out.write(f' <ExportDate value="{stamp(base + dt.timedelta(days=400), NEW_YORK)}"/>\n')
    out.write(' <Me HKCharacteristicTypeIdentifierDateOfBirth="1987-06-15" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"'
              ' HKCharacteristicTypeIdentifierBloodType="HKBloodTypeABNegative" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeIII"'
              ' HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse="None" HKCharacteristicTypeIdentifierWheelchairUse="HKWheelchairUseNo"/>\n')
    minute = 0
    summaries = 0
    while w.count < records:
        start = base + dt.timedelta(minutes=minute)
        end = start + dt.timedelta(seconds=50)
        slot = minute % 20
        phone_turn = (minute // 20) % 2 == 0
        walker = PHONE if phone_turn else WATCH
        if slot in (0, 1, 2, 3, 4, 5, 18, 19):
            w.record("HKQuantityTypeIdentifierStepCount", "count", rng.randint(0, 140), walker, NEW_YORK, start, end)
        elif slot == 6:
            w.record("HKQuantityTypeIdentifierStepCount", "count", rng.randint(0, 90), APP, 0, start, end)
        elif slot == 7:
            w.record("HKQuantityTypeIdentifierDistanceWalkingRunning", "km", round(rng.uniform(0, 0.12), 5), PHONE, NEW_YORK, start, end)
        elif slot == 8:
            w.record("HKQuantityTypeIdentifierDistanceWalkingRunning", "mi", round(rng.uniform(0, 0.07), 5), WATCH, NEW_YORK, start, end)
        elif slot == 9:
            w.record("HKQuantityTypeIdentifierActiveEnergyBurned", "kcal", round(rng.uniform(0, 9), 3), WATCH, NEW_YORK, start, end)
        elif slot == 10:
            w.record("HKQuantityTypeIdentifierActiveEnergyBurned", "kJ", round(rng.uniform(0, 30), 3), APP, 60, start, end)
        elif slot == 11:
            w.record("HKQuantityTypeIdentifierHeartRate", "count/min", rng.randint(52, 150), WATCH, NEW_YORK, start, start,
                     [("HKMetadataKeyHeartRateMotionContext", "0")])
        elif slot == 12:
            kind = "HKQuantityTypeIdentifierMadeUpFutureMeasure" if minute % 40 < 20 else "HKDataTypeSleepDurationGoal"
            w.record(kind, "count", rng.randint(1, 9), APP, 0, start, end)
        elif slot == 13:
            w.record("HKCategoryTypeIdentifierSleepAnalysis", None, SLEEP[(minute // 20) % len(SLEEP)], APP, 60, start, end,
                     [("HKTimeZone", "Europe/Berlin")])
        elif slot == 14:
            w.record("HKQuantityTypeIdentifierBodyMass", "lb", round(rng.uniform(140, 150), 1), APP, 0, start, start,
                     [("HKWasUserEntered", "1")])
        elif slot == 15:
            sys_v, dia_v = rng.randint(105, 135), rng.randint(65, 88)
            members = [("HKQuantityTypeIdentifierBloodPressureSystolic", sys_v), ("HKQuantityTypeIdentifierBloodPressureDiastolic", dia_v)]
            for kind, val in members:
                w.record(kind, "mmHg", val, APP, 60, start, start)
            out.write(f' <Correlation type="HKCorrelationTypeIdentifierBloodPressure" {w.attrs(APP, 60, start, start)}>\n')
            for kind, val in members:
                w.record(kind, "mmHg", val, APP, 60, start, start, indent="  ")
            out.write(" </Correlation>\n")
        elif slot == 16:
            kcal = round(rng.uniform(80, 700), 1)
            w.record("HKQuantityTypeIdentifierDietaryEnergyConsumed", "Cal", kcal, APP, 0, start, start)
            out.write(f' <Correlation type="HKCorrelationTypeIdentifierFood" {w.attrs(APP, 0, start, start)}>\n')
            out.write('  <MetadataEntry key="HKFoodType" value="Lunch"/>\n')
            w.record("HKQuantityTypeIdentifierDietaryEnergyConsumed", "Cal", kcal, APP, 0, start, start, indent="  ")
            out.write(" </Correlation>\n")
        elif slot == 17:
            if minute % 1000 == 17:
                wend = start + dt.timedelta(minutes=31, seconds=30)
                if (minute // 1000) % 2 == 0:
                    out.write(f' <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="31.5" durationUnit="min"'
                              f' totalDistance="{round(rng.uniform(2.5, 4.5), 3)}" totalDistanceUnit="mi"'
                              f' totalEnergyBurned="{round(rng.uniform(250, 420), 1)}" totalEnergyBurnedUnit="kcal" {w.attrs(WATCH, NEW_YORK, start, wend)}>\n')
                    out.write('  <MetadataEntry key="HKIndoorWorkout" value="0"/>\n')
                    out.write(f'  <WorkoutEvent type="HKWorkoutEventTypeSegment" date="{stamp(start, NEW_YORK)}" duration="10" durationUnit="min"/>\n')
                    out.write(" </Workout>\n")
                else:
                    out.write(f' <Workout workoutActivityType="HKWorkoutActivityTypeCycling" duration="1890" durationUnit="s" {w.attrs(WATCH, NEW_YORK, start, wend)}>\n')
                    out.write(f'  <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" startDate="{stamp(start, NEW_YORK)}" endDate="{stamp(wend, NEW_YORK)}" sum="{round(rng.uniform(1000, 1500), 1)}" unit="kJ"/>\n')
                    out.write(f'  <WorkoutStatistics type="HKQuantityTypeIdentifierDistanceCycling" startDate="{stamp(start, NEW_YORK)}" endDate="{stamp(wend, NEW_YORK)}" sum="{round(rng.uniform(9, 14), 2)}" unit="km"/>\n')
                    out.write(" </Workout>\n")
                w.count += 1
            elif minute % 1440 == 1437:
                day = (start.astimezone(NEW_YORK)).date()
                out.write(f' <ActivitySummary dateComponents="{day.isoformat()}" activeEnergyBurned="400" activeEnergyBurnedGoal="500" activeEnergyBurnedUnit="kcal"/>\n')
                summaries += 1
        minute += 1
    out.write("</HealthData>\n")
    return w.count, minute


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--records", type=int, default=10000, help="at least this many Records and Workouts (default 10000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start", default="2024-02-20", help="first day (America/New_York), YYYY-MM-DD")
    parser.add_argument("--output", required=True, help="export.zip (zipped as apple_health_export/export.xml) or export.xml")
    args = parser.parse_args()
    start_day = dt.date.fromisoformat(args.start)
    if args.output.endswith(".zip"):
        with zipfile.ZipFile(args.output, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
            with archive.open("apple_health_export/export.xml", "w", force_zip64=True) as raw:
                import io
                text = io.TextIOWrapper(raw, encoding="utf-8", newline="\n", write_through=False)
                count, minutes = generate(text, args.records, args.seed, start_day)
                text.flush()
                text.detach()
    else:
        with open(args.output, "w", encoding="utf-8", newline="\n") as out:
            count, minutes = generate(out, args.records, args.seed, start_day)
    print(f"{args.output}: {count} records over {minutes} minutes from {start_day}", file=sys.stderr)


if __name__ == "__main__":
    main()
