import CommandLineSupport

extension HealthctlSpec {
    /// `healthctl consent [--policy FILE] [--once]`.
    static let consent = CommandSpec(
        "consent",
        summary: "Answer authorization prompts as the person: interactively, or by a policy file.",
        discussion: """
            Watches the daemon's prompts. Interactively, each prompt shows the app, its usage texts and \
            the undecided types, then asks per type: share: allow or deny; read: full, 'limited \
            YYYY-MM-DD' (from midnight UTC), 'last N days' (fixed now to the date N days ago) or deny. \
            Type 'cancel' to cancel the whole prompt (the app is told the person cancelled). End input \
            (Ctrl-D) to stop; an unfinished prompt stays pending.
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

    /// `healthctl grants APP_ID`.
    static let grants = CommandSpec(
        "grants",
        summary: "Show what an app was granted, per type: share, read, limited-from date, who decided and when.",
        positionals: [PositionalSpec("APP_ID", help: "The app whose grants to show.")]
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
        summary: "List every app that ever asked for authorization, even if it was denied everything or removed."
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
        summary: "List the data types the broker knows, with the short aliases healthctl accepts."
    )
}
