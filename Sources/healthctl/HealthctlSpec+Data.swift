import CommandLineSupport

extension HealthctlSpec {
    /// `healthctl import FILE (--app APP_ID | --keep-sources) [--batch N] [--format F]`, or an Apple Health export.zip.
    static let importSamples = CommandSpec(
        "import",
        summary: "Import samples from JSON lines, CSV or an Apple Health export.zip as if apps had saved them (idempotent).",
        discussion: """
            JSON lines (.jsonl, .json): one object per line (docs/IMPORT-FORMAT.md has the details):
              {"uuid": "…", "type": "stepCount", "start": "2025-06-01T10:00:00Z", "end": "2025-06-01T10:01:00Z", "value": 42, "unit": "count"}
            "uuid" is optional: a missing one is derived from the line's content (a name-based UUID), so \
            importing the same file again changes nothing. "type" is an identifier or an alias; "start" \
            and "end" are ISO-8601 UTC instants ("start_us"/"end_us": integer microseconds; no end: the \
            start). The value is one of: "value" and "unit" (unit optional: the type's canonical unit) for \
            quantity types; "category": N for category types (sleepAnalysis: 0 inBed, 1 asleepUnspecified, \
            2 awake, 3 asleepCore, 4 asleepDeep, 5 asleepREM); "workout": {"activity": "running", \
            "duration_s": 1800, "energy_kcal": 300, "distance_m": 5000} for workouts; "objects": [ … ] for \
            correlations (bloodPressure, food), each object a sample of a member type in the same form. \
            Optional "metadata": \
            {"key": "value"} (strings). "source" (written by export) is used with --keep-sources, and \
            ignored otherwise; "created" is ignored.
            CSV (.csv): a header naming the columns uuid,type,start,end,value,unit (any order; uuid and unit \
            may be left out or empty), then one quantity sample per line; start and end as ISO-8601 UTC or \
            integer microseconds.
            Lines are sent in batches, each all or nothing; every line of a batch is parsed before any of it \
            is sent. A bad line stops the import as FILE:LINE: MESSAGE, saying how many samples earlier \
            batches imported; run it again once fixed, samples already imported are recognised. On a \
            terminal a progress line shows the count and rate; otherwise one summary line is printed.
            Apple Health (.zip, .xml; --format apple-health): the export.zip the Health app writes, or its \
            export.xml, streamed (the zip through 'unzip -p'). Records, correlations (with their records), workouts and the \
            Me element's characteristics go in, units converted and local offsets honoured; each sourceName \
            becomes an app of its own (registered under its name, so 'healthctl sources' shows it); uuids \
            come from each record's content, so the same export imports once. The summary counts records \
            read, new and duplicate samples, samples per source, and what was not imported, per type.
            """,
        options: [
            .option("app", value: "APP_ID", help: "The source app the samples are recorded as (required without --keep-sources; not with apple-health)."),
            .flag("keep-sources", help: "Record each JSON line under the app its \"source\" names (as export writes it), --app for lines without one. Every source must be registered: the import stops before sending anything, listing those that are not."),
            // No default here: one would always be given, and an Apple Health export's own (10000) never used.
            .option("batch", value: "N", help: "Samples per call (1-10000; default 1000, an Apple Health export 10000)."),
            .option("format", value: "FORMAT", help: "jsonl, csv or apple-health (default: from the file's extension)."),
        ],
        positionals: [PositionalSpec("FILE", help: "The file to import; '-' reads standard input (give --format).")]
    )

    /// `healthctl export [--type T] [--app APP] [--output FILE]`.
    static let exportSamples = CommandSpec(
        "export",
        summary: "Write every stored sample (of a type, of an app) as JSON lines that 'healthctl import' reads back.",
        discussion: """
            Each line holds uuid, type, start and end (ISO-8601 UTC with microseconds), the value (value and \
            unit, category, or workout), metadata when there is any, and the source app. A correlation \
            (blood pressure, food) is one line holding its objects ("objects"), which are not written again \
            on their own; with --type of a member type they are, as samples of that type.
            """,
        options: [
            .option("type", value: "TYPE", help: "Only samples of this type (identifier or alias)."),
            .option("app", value: "APP_ID", help: "Only samples this app saved."),
            .option("output", value: "FILE", help: "Write to FILE instead of standard output."),
        ]
    )

    /// `healthctl backup FILE`.
    static let backup = CommandSpec(
        "backup",
        summary: "Have the broker write a consistent copy of its whole store to FILE while it runs.",
        discussion: """
            Everything is in it: apps and their tokens, grants, sources, characteristics, samples, \
            deletions (tombstones) and the access log. The broker writes FILE itself (mode 0600), so its \
            directory must be one the broker can write; a relative FILE is taken from this directory. An \
            existing FILE is never replaced. To restore, stop the broker and run \
            'healthbrokerd --restore FILE'.
            """,
        positionals: [PositionalSpec("FILE", help: "The new backup file.")]
    )

    /// `healthctl access-log [APP_ID] [--limit N] [--utc]`.
    static let accessLog = CommandSpec(
        "access-log",
        summary: "Show which app read or wrote which types, when, through which call, and how many samples (never values).",
        discussion: """
            One row per call and type: a query is one row when it ends (the samples it returned), a \
            statistics call one row (the samples that contributed), an import one row per app and type \
            however many calls it took. Times are in the local time zone (TZ), or UTC with --utc; \
            --json always gives UTC.
            """,
        options: [
            .option("limit", value: "N", help: "At most N entries, newest first (0: the broker's default, 1000)."),
        ],
        positionals: [PositionalSpec("APP_ID", help: "Only this app's entries.", optional: true)]
    )

    /// `healthctl stats TYPE [--interval I] [--from DATE] [--to DATE] [--tz ZONE] [--unit U]`.
    static let stats = CommandSpec(
        "stats",
        summary: "Show statistics of a quantity type over every app's samples (the person's own view).",
        discussion: """
            Sums for cumulative types (steps, energy, distance), average, minimum and maximum for discrete \
            ones (heart rate, weight), over the whole range or per calendar hour, day, week or month in the \
            time zone --tz (default: the local one, TZ, else UTC). DATE is YYYY-MM-DD (local midnight in that \
            zone) or an ISO-8601 instant; per-interval statistics need both --from and --to. Empty intervals \
            are left out. No app's access matters here, and nothing is written to the access log.
            """,
        options: [
            .option("interval", value: "I", help: "none, hour, day, week or month.", default: "none"),
            .option("from", value: "DATE", help: "Samples from this date on."),
            .option("to", value: "DATE", help: "Samples before this date."),
            .option("tz", value: "ZONE", help: "IANA time zone for --interval and the dates (default: the local one)."),
            .option("unit", value: "UNIT", help: "Values in this unit (default: the type's canonical unit)."),
        ],
        positionals: [PositionalSpec("TYPE", help: "A quantity type (identifier or alias).")]
    )

    /// `healthctl demo-data --app APP_ID [--days N] [--end DATE] [--seed N] [--output FILE]`.
    static let demoData = CommandSpec(
        "demo-data",
        summary: "Generate a realistic, repeatable health history and import it (or write it as JSON lines).",
        discussion: """
            Per UTC day: steps for every minute (none asleep, walking bursts by day, many in runs and walks), \
            heart rate every 5 minutes (higher in workouts), one sleep session a night (an inBed sample and \
            its stages as HKCategoryValueSleepAnalysis: 0 inBed, 2 awake, 3 asleepCore, 4 asleepDeep, \
            5 asleepREM), and running, walking or cycling workouts about three times a week, with energy \
            and distance. The same seed gives the same data, and every UUID is derived from (seed, type, \
            start): running it again with the same --end changes nothing, and a later --end only adds the \
            new minutes. A sample is generated when it starts at or after END − DAYS and ends by END.
            """,
        options: [
            .option("app", value: "APP_ID", help: "The source app the samples are recorded as (required)."),
            .option("days", value: "N", help: "How many days of data, ending at --end (1-3650).", default: "90"),
            .option("end", value: "DATE", help: "Where the data ends: YYYY-MM-DD (midnight UTC) or an ISO-8601 UTC instant (default: now, to the minute)."),
            .option("seed", value: "N", help: "The random seed (a whole number).", default: "1"),
            .option("batch", value: "N", help: "Samples per import call (1-10000).", default: "1000"),
            .option("output", value: "FILE", help: "Write JSON lines to FILE instead of importing ('-': standard output)."),
        ]
    )
}
