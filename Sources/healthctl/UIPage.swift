/// The page of `healthctl ui`: HTML, script and style, all inside the binary (no third-party asset,
/// nothing fetched from elsewhere: it works offline). The script builds every element with
/// `textContent`, never markup from data, and the content security policy admits only these files.
enum UIPage {
    /// The page itself (`/s/SECRET/`); its script and style are relative to it.
    static let html = Array("""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Health</title>
        <link rel="stylesheet" href="app.css">
        <script src="app.js" defer></script>
        </head>
        <body>
        <header>
          <h1>Health</h1>
          <nav>
            <button class="tab" data-tab="apps">Apps</button>
            <button class="tab" data-tab="types">Data types</button>
            <button class="tab" data-tab="history">Access history</button>
            <button class="tab" data-tab="data">Data</button>
          </nav>
          <span id="connection" class="connection">connecting…</span>
        </header>
        <main>
          <p id="notice" class="notice" hidden></p>
          <section id="page-apps" class="page"></section>
          <section id="page-types" class="page" hidden></section>
          <section id="page-history" class="page" hidden></section>
          <section id="page-data" class="page" hidden></section>
        </main>
        <div id="backdrop" class="backdrop" hidden>
          <div id="sheet" class="sheet" role="dialog" aria-modal="true" aria-labelledby="sheet-title"></div>
        </div>
        </body>
        </html>

        """.utf8)
}
