import CommandLineSupport

extension HealthctlSpec {
    /// `healthctl consent [--policy FILE] [--once]`.
    static let consent = CommandSpec(
        "consent",
        summary: "Answer authorization prompts as the person: interactively, or by a policy file.",
        discussion: """
            Watches the daemon's prompts. Interactively, each prompt shows the app, its usage texts, \
            the undecided types and until when the app waits for the answer (its call's deadline, in \
            local time, or 'no time limit'), then asks per type: share: allow or deny; read: full, 'limited \
            YYYY-MM-DD' (from local midnight), 'last N days' (fixed now to the date N days ago) or deny; \
            characteristics take allow or deny only. 'allow all' / 'deny all' answers the rest of the \
            prompt, '?' explains the choices, 'cancel' cancels the whole prompt (the app is told the \
            person cancelled). A prompt answered elsewhere leaves the screen at once; if the daemon goes \
            away the agent reconnects (0.5 s doubling to 10 s) and shows the pending prompts again. End \
            input (Ctrl-D) to stop; an unfinished prompt stays pending.
            With --policy FILE, answers every prompt by the policy (the format of healthbrokerd \
            --consent-policy) and logs one line per prompt; parts no rule covers are left out of the \
            answer, so the broker records them as denied. Runs until interrupted, or until one prompt \
            is answered with --once.
            """,
        options: [
            .option("policy", value: "FILE", help: "Answer by this JSON consent policy instead of asking."),
            .flag("once", help: "Exit after one prompt was answered or cancelled."),
        ]
    )

    /// `healthctl grants APP_ID`, `healthctl grants --type TYPE` and `healthctl grants set …`.
    static let grants = CommandSpec(
        "grants",
        summary: "Show what an app was granted, per type: share, read, limited-from date, who decided and when.",
        discussion: """
            With APP_ID, every type that app was decided for. With --type TYPE instead, that one type \
            across every registered app (apps never decided for it are not listed). 'grants set' \
            changes a decision directly.
            """,
        options: [.option("type", value: "TYPE", help: "Show one type (identifier or alias) across every app instead of one app's grants.")],
        positionals: [PositionalSpec("APP_ID", help: "The app whose grants to show (or use --type).", optional: true)],
        subcommands: [grantSet, grantTurnOff]
    )

    /// `healthctl grants turn-off TYPE`.
    static let grantTurnOff = CommandSpec(
        "turn-off",
        summary: "Take one type away from every app: deny reading and writing it wherever an app was allowed.",
        discussion: """
            For every registered app allowed to read TYPE (full or from a date) or to write it, records \
            deny for each part that app was decided for (decided by 'admin', now); apps already denied, \
            or never asked, are left as they are. Each app sees the change on its very next call. \
            Prints the apps changed, as 'grants --type' does. To undo it for one app, use 'grants set'.
            """,
        positionals: [PositionalSpec("TYPE", help: "The type (identifier or alias).")]
    )

    /// `healthctl grants set APP_ID TYPE [full|deny|from DATE] [--share allow|deny]`.
    static let grantSet = CommandSpec(
        "set",
        summary: "Set an app's decision for one type directly, as the person, without a prompt.",
        discussion: """
            READ is full, deny, or 'from DATE': reading limited to samples ending at or after DATE \
            (YYYY-MM-DD: midnight in your time zone, TZ, as 'healthctl consent' and 'healthctl ui' take \
            it; or an ISO-8601 UTC instant; not in the future). --share sets \
            the share decision; a part not given stays as it was. Characteristic types (dateOfBirth, \
            biologicalSex, bloodType) take only full or deny. The decision is recorded as decided by \
            'admin', now, and the app sees it on its very next call; an open prompt of the app stays \
            open. To forget a decision so the app is asked again, use 'healthctl revoke'. For \
            example: 'healthctl grants set com.example.steps stepCount from 2026-01-01', or \
            'healthctl grants set com.example.steps stepCount deny --share allow'.
            """,
        options: [.option("share", value: "allow|deny", help: "The share (write) decision to record.")],
        positionals: [
            PositionalSpec("APP_ID", help: "The app (it must be registered)."),
            PositionalSpec("TYPE", help: "The type (identifier or alias)."),
            PositionalSpec("READ", help: "full, deny or from; leave out to set only --share.", optional: true),
            PositionalSpec("DATE", help: "With 'from': the first day the app may read.", optional: true),
        ]
    )

    /// `healthctl revoke APP_ID [TYPE...]`.
    static let revoke = CommandSpec(
        "revoke",
        summary: "Forget an app's decisions (all, or for some types) so it is asked again; prints how many.",
        positionals: [
            PositionalSpec("APP_ID", help: "The app whose grants to revoke."),
            PositionalSpec("TYPE", help: "Types to revoke (identifier or alias); none: every type.", optional: true, variadic: true),
        ]
    )

    /// `healthctl sources`.
    static let sources = CommandSpec(
        "sources",
        summary: "List every app that ever asked for authorization, even if it was denied everything or removed.",
        discussion: """
            Also lists every app whose samples are stored (an import under its name, say), with how many. \
            With '--type', only the apps with samples of that type and their count of it, as the Health \
            app's Sources list of one data type; '--json' gives every source's count per type.
            """,
        options: [.option("type", value: "TYPE", help: "Only sources with samples of TYPE (identifier or alias), with their count of it.")],
        subcommands: [sourcePriority],
        runsAlone: true
    )

    /// `healthctl sources priority TYPE [APP_ID...]`.
    static let sourcePriority = CommandSpec(
        "priority",
        summary: "Show or set which sources count first for a type, so a walk counted by two devices counts once.",
        discussion: """
            With APP_IDs, sets the order (best first), replacing the earlier one; without, shows it. \
            Statistics of cumulative types (steps, distance, energy, ...) then merge overlapping samples \
            of several sources: where a higher source has data for a stretch of time, lower ones add \
            nothing for it, and a partly covered sample counts the share of its time not covered. \
            Sources not listed come after the listed ones, by app id. Sample queries still return every \
            sample; discrete types (heart rate, body mass, ...) are never merged. Each app's statistics \
            merge only what that app may read. '--clear' removes the order. For example: \
            'healthctl sources priority stepCount com.example.watch com.example.phone'.
            """,
        options: [.flag("clear", help: "Remove the type's order (every source then ranks by app id).")],
        positionals: [
            PositionalSpec("TYPE", help: "The sample type (identifier or alias)."),
            PositionalSpec("APP_ID", help: "The sources, best first; none: show the current order.", optional: true, variadic: true),
        ]
    )

    /// `healthctl characteristics set|clear`.
    static let characteristics = CommandSpec(
        "characteristics",
        summary: "Set or clear the person's characteristics (date of birth, biological sex, blood type).",
        subcommands: [characteristicSet, characteristicClear]
    )

    /// `healthctl characteristics set TYPE VALUE`.
    static let characteristicSet = CommandSpec(
        "set",
        summary: "Set a characteristic; apps granted read access to it can read it.",
        discussion: """
            Values: dateOfBirth YYYY-MM-DD; biologicalSex female, male or other; bloodType A+, A-, B+, \
            B-, AB+, AB-, O+ or O-.
            """,
        positionals: [
            PositionalSpec("TYPE", help: "dateOfBirth, biologicalSex or bloodType (or the full identifier)."),
            PositionalSpec("VALUE", help: "The value to store."),
        ]
    )

    /// `healthctl characteristics clear TYPE`.
    static let characteristicClear = CommandSpec(
        "clear",
        summary: "Clear a characteristic; apps then read it as unset.",
        positionals: [PositionalSpec("TYPE", help: "dateOfBirth, biologicalSex or bloodType (or the full identifier).")]
    )

    /// `healthctl explain APP_ID TYPE`.
    static let explain = CommandSpec(
        "explain",
        summary: "Tell the operator why an app sees what it sees for a type (never shown to the app).",
        positionals: [
            PositionalSpec("APP_ID", help: "The app."),
            PositionalSpec("TYPE", help: "The type (identifier or alias)."),
        ]
    )

    /// `healthctl types`.
    static let types = CommandSpec(
        "types",
        summary: "List the data types the broker knows (the HealthKit catalogue): aliases healthctl accepts, canonical units, groups and names; --json adds value sets."
    )
}
