#!/usr/bin/env python3
"""Turns catalogue/healthkit-types.tsv, the one source of the HealthKit type catalogue, into Swift.

    scripts/generate-catalogue.py           write Sources/BrokerModel/Generated/*.swift
    scripts/generate-catalogue.py --check   fail (exit 1) when a checked-in file differs from a fresh run

The TSV's columns are described in its header comments. This script checks what it can without
Swift (known kinds, dimensions, aggregations and groups; unique identifiers and aliases; quantity
rows with a unit; correlation members that are catalogued quantity types); the unit strings
themselves are checked by the Swift tests (every canonical unit parses and fits its dimension).
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE = os.path.join(ROOT, "catalogue", "healthkit-types.tsv")
OUT_DIR = os.path.join(ROOT, "Sources", "BrokerModel", "Generated")

KINDS = ["quantity", "category", "workout", "characteristic", "correlation"]
AGGREGATIONS = ["cumulative", "discrete", "none"]
# The UnitDimension cases (Sources/BrokerModel/Types/UnitDimension.swift).
DIMENSIONS = [
    "count", "countPerTime", "energy", "length", "mass", "percent", "time", "temperature", "pressure",
    "volume", "massPerVolume", "speed", "power", "volumePerTime", "volumePerMassTime",
    "energyPerMassTime", "soundPressureLevel", "hearingLevel", "conductance", "internationalUnit",
    "effortScore", "none",
]
# The TypeGroup cases, by the text the TSV uses.
GROUPS = {
    "Activity": "activity", "Body measurements": "bodyMeasurements", "Characteristics": "characteristics",
    "Hearing": "hearing", "Heart": "heart", "Mindfulness": "mindfulness", "Mobility": "mobility",
    "Nutrition": "nutrition", "Other": "other", "Reproductive health": "reproductiveHealth",
    "Respiratory": "respiratory", "Sleep": "sleep", "Symptoms": "symptoms", "Vitals": "vitals",
}
# TypeCatalogue.aliasPrefixes, longest first.
ALIAS_PREFIXES = [
    "HKCharacteristicTypeIdentifier", "HKCorrelationTypeIdentifier", "HKQuantityTypeIdentifier",
    "HKCategoryTypeIdentifier", "HKWorkoutTypeIdentifier",
]
HEADER = ["identifier", "kind", "dimension", "canonical_unit", "aggregation", "shareable", "group", "name",
          "molar_mass", "values"]


def fail(message):
    sys.exit(f"generate-catalogue: {message}")


def alias(identifier, kind):
    """TypeCatalogue.alias(of:): the identifier without its prefix, first letter lower-cased."""
    for prefix in ALIAS_PREFIXES:
        if identifier.startswith(prefix):
            rest = identifier[len(prefix):]
            return rest[0].lower() + rest[1:] if rest else kind
    return identifier


def swift_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def read_rows():
    rows = []
    with open(SOURCE, encoding="utf-8") as source:
        lines = [line.rstrip("\n") for line in source if line.strip() and not line.startswith("#")]
    if not lines or lines[0].split("\t") != HEADER:
        fail(f"{SOURCE}: the first line that is not a comment must be the header {HEADER}")
    for number, line in enumerate(lines[1:], start=2):
        fields = line.split("\t")
        if len(fields) != len(HEADER):
            fail(f"row {number}: {len(fields)} fields, {len(HEADER)} expected: {line!r}")
        row = dict(zip(HEADER, [None if field == "-" else field for field in fields]))
        check(row, number)
        rows.append(row)
    identifiers = [row["identifier"] for row in rows]
    if len(set(identifiers)) != len(identifiers):
        fail("an identifier appears twice: " + ", ".join(sorted({i for i in identifiers if identifiers.count(i) > 1})))
    aliases = [alias(row["identifier"], row["kind"]) for row in rows]
    if len(set(a.lower() for a in aliases)) != len(aliases):
        fail("two types share an alias")
    quantities = {row["identifier"] for row in rows if row["kind"] == "quantity"}
    for row in rows:
        if row["kind"] == "correlation":
            unknown = [m for m in row["values"].split("|") if m not in quantities]
            if unknown:
                fail(f"{row['identifier']}: members that are not catalogued quantity types: {unknown}")
    return rows


def check(row, number):
    where = f"row {number} ({row['identifier']})"
    if row["kind"] not in KINDS:
        fail(f"{where}: kind {row['kind']!r} is not one of {KINDS}")
    if row["aggregation"] not in AGGREGATIONS:
        fail(f"{where}: aggregation {row['aggregation']!r} is not one of {AGGREGATIONS}")
    if row["dimension"] not in DIMENSIONS:
        fail(f"{where}: dimension {row['dimension']!r} is not one of {DIMENSIONS}")
    if row["group"] not in GROUPS:
        fail(f"{where}: group {row['group']!r} is not one of {sorted(GROUPS)}")
    if row["shareable"] not in ("yes", "no"):
        fail(f"{where}: shareable must be yes or no")
    if not row["name"]:
        fail(f"{where}: no name")
    is_quantity = row["kind"] == "quantity"
    if is_quantity != (row["dimension"] != "none") or is_quantity != (row["canonical_unit"] is not None) \
            or is_quantity != (row["aggregation"] != "none"):
        fail(f"{where}: a quantity type, and only one, has a dimension, a canonical unit and an aggregation")
    if row["molar_mass"] is not None:
        if not is_quantity or float(row["molar_mass"]) <= 0:
            fail(f"{where}: a molar mass is a positive number of a quantity type")
    if row["kind"] == "characteristic" and row["shareable"] == "yes":
        fail(f"{where}: characteristics are never shared")
    if row["kind"] in ("category", "correlation", "workout") and not row["values"]:
        fail(f"{where}: a {row['kind']} type lists its values")
    if row["kind"] == "category":
        for value in row["values"].split("|"):
            name, _, raw = value.partition(":")
            if not name or not raw.isdigit():
                fail(f"{where}: category value {value!r} is not name:number")


def generate(rows):
    out = {}
    lines = [
        "// Generated by scripts/generate-catalogue.py from catalogue/healthkit-types.tsv. Do not edit.",
        "",
        "extension TypeCatalogue {",
        "    /// The identifier of every type in `all`, in the same order: an `ObjectType` finds its",
        "    /// `catalogueIndex` here when it is made (kept apart from `all`, which is built from",
        "    /// `ObjectType` values, so that making one never needs `all`).",
        "    package static let knownIdentifiers: [StaticString] = [",
    ]
    lines += [f"        {swift_string(row['identifier'])}," for row in rows]
    lines += ["    ]", "",
              "    /// Every known type, in the order of `knownIdentifiers`.",
              "    public static let all: [TypeDescriptor] = ["]
    for row in rows:
        unit = swift_string(row["canonical_unit"] or "")
        molar = row["molar_mass"] or "nil"
        lines.append(
            f"        TypeDescriptor(type: .{alias(row['identifier'], row['kind'])}, kind: .{row['kind']}, "
            f"aggregation: .{row['aggregation']}, dimension: .{row['dimension']}, canonicalUnit: {unit}, "
            f"canShare: {'true' if row['shareable'] == 'yes' else 'false'}, displayName: {swift_string(row['name'])}, "
            f"group: .{GROUPS[row['group']]}, molarMass: {molar}),")
    lines += ["    ]", "",
              "    /// The values each category type takes (HealthKit's `HKCategoryValue…` cases), by type.",
              "    static let categoryValueTable: [ObjectType: [CategoryValueName]] = ["]
    for row in rows:
        if row["kind"] == "category":
            values = ", ".join(
                f"CategoryValueName({swift_string(name)}, {raw})"
                for name, _, raw in (value.partition(":") for value in row["values"].split("|")))
            lines.append(f"        .{alias(row['identifier'], row['kind'])}: [{values}],")
    lines += ["    ]", "",
              "    /// The values each characteristic with a fixed set takes (date of birth has none: it is a date).",
              "    static let characteristicValueTable: [ObjectType: [String]] = ["]
    for row in rows:
        if row["kind"] == "characteristic" and row["values"]:
            values = ", ".join(swift_string(v) for v in row["values"].split("|"))
            lines.append(f"        .{alias(row['identifier'], row['kind'])}: [{values}],")
    lines += ["    ]", "",
              "    /// The quantity types each correlation type may hold.",
              "    static let correlationMemberTable: [ObjectType: [ObjectType]] = ["]
    for row in rows:
        if row["kind"] == "correlation":
            members = ", ".join("." + alias(m, "quantity") for m in row["values"].split("|"))
            lines.append(f"        .{alias(row['identifier'], row['kind'])}: [{members}],")
    lines += ["    ]", "",
              "    /// HealthKit's workout activity types (`HKWorkoutActivityType` case names).",
              "    public static let workoutActivityTypes: [String] = ["]
    for row in rows:
        if row["kind"] == "workout":
            lines += [f"        {swift_string(v)}," for v in row["values"].split("|")]
    lines += ["    ]", "}", ""]
    out["TypeCatalogue+Generated.swift"] = "\n".join(lines)

    lines = [
        "// Generated by scripts/generate-catalogue.py from catalogue/healthkit-types.tsv. Do not edit.",
        "",
        "extension ObjectType {",
    ]
    for row in rows:
        detail = row["kind"]
        if row["kind"] == "quantity":
            detail = f"{row['aggregation']}, {row['canonical_unit']}"
        lines.append(f"    /// {row['name']} ({detail}).")
        lines.append(f"    public static let {alias(row['identifier'], row['kind'])} = ObjectType({swift_string(row['identifier'])})")
    lines += ["}", ""]
    out["ObjectType+Generated.swift"] = "\n".join(lines)
    return out


def main():
    check_only = sys.argv[1:] == ["--check"]
    if sys.argv[1:] not in ([], ["--check"]):
        sys.exit(__doc__)
    files = generate(read_rows())
    stale = []
    for name, text in files.items():
        path = os.path.join(OUT_DIR, name)
        current = open(path, encoding="utf-8").read() if os.path.exists(path) else None
        if current == text:
            continue
        if check_only:
            stale.append(name)
        else:
            os.makedirs(OUT_DIR, exist_ok=True)
            with open(path, "w", encoding="utf-8") as out:
                out.write(text)
    extra = sorted(set(os.listdir(OUT_DIR)) - set(files)) if os.path.isdir(OUT_DIR) else []
    if check_only and (stale or extra):
        fail("checked-in catalogue code is stale (run scripts/generate-catalogue.py): " + ", ".join(stale + extra))


if __name__ == "__main__":
    main()
