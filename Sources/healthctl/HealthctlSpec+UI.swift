import CommandLineSupport

extension HealthctlSpec {
    /// `healthctl ui [--port N] [--open]`.
    static let ui = CommandSpec(
        "ui",
        summary: "Serve the authorization sheet and a Health page in the browser, on 127.0.0.1 only.",
        discussion: """
            Starts a local web page: the sheet that appears when an app asks for authorization (answer \
            it there, live; it counts down until when the app waits), and pages for every app's decisions (changed directly: full, from a date, \
            deny, or forget), each type's readers and writers, the access history and charts of the data. \
            The process is a consent agent and admin client on the admin socket like 'healthctl consent': \
            it opens no new door into the broker. It listens on 127.0.0.1 only (port chosen by the \
            system unless --port), and every URL carries a random secret: the first line printed on \
            standard output is the page's address, secret included (keep it to yourself). Requests \
            without the secret, or from another Host or Origin, are refused with 403. Everything the \
            page needs is inside healthctl: it works offline. Runs until interrupted (Ctrl-C).
            """,
        options: [
            .option("port", value: "N", help: "Listen on this port instead of one the system chooses."),
            .flag("open", help: "Open the page in the desktop's browser (xdg-open)."),
        ]
    )
}
