extension UIPage {
    /// `app.css`.
    static let style = Array("""
        :root { color-scheme: light; --accent: #0a7d5a; --deny: #b3261e; --line: #e3e3e8; --muted: #6b6b76; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; background: #f4f4f7; color: #1c1c1e; }
        header { display: flex; align-items: center; gap: 24px; padding: 12px 24px; background: #fff; border-bottom: 1px solid var(--line); position: sticky; top: 0; }
        h1 { font-size: 20px; margin: 0; color: var(--accent); }
        nav { display: flex; gap: 4px; }
        .tab { border: 0; background: none; padding: 8px 12px; border-radius: 8px; font: inherit; cursor: pointer; color: #333; }
        .tab.active { background: #e6f3ee; color: var(--accent); font-weight: 600; }
        .connection { margin-left: auto; font-size: 13px; color: var(--muted); }
        .connection.down { color: var(--deny); }
        main { max-width: 980px; margin: 0 auto; padding: 20px 24px 60px; }
        .notice { background: #fff8e1; border: 1px solid #f0d68a; padding: 8px 12px; border-radius: 8px; }
        .card { background: #fff; border: 1px solid var(--line); border-radius: 12px; padding: 16px 18px; margin-bottom: 16px; }
        .card h2 { margin: 0 0 2px; font-size: 17px; }
        .sub { color: var(--muted); font-size: 13px; }
        table { width: 100%; border-collapse: collapse; margin-top: 10px; }
        th, td { text-align: left; padding: 6px 8px; border-top: 1px solid var(--line); vertical-align: middle; }
        th { font-weight: 600; font-size: 13px; color: var(--muted); border-top: 0; }
        select, input[type=date], button.action { font: inherit; padding: 4px 8px; border: 1px solid #c9c9d0; border-radius: 6px; background: #fff; }
        button.action { cursor: pointer; }
        button.primary { background: var(--accent); color: #fff; border-color: var(--accent); }
        button.link { border: 0; background: none; color: var(--deny); cursor: pointer; font: inherit; padding: 0; }
        .badge { display: inline-block; font-size: 12px; padding: 1px 8px; border-radius: 10px; background: #eee; color: #444; margin-left: 6px; }
        .allowed { color: var(--accent); }
        .denied { color: var(--deny); }
        .saved { color: var(--accent); font-size: 13px; }
        .error { color: var(--deny); font-size: 13px; }
        .backdrop { position: fixed; inset: 0; background: rgba(0,0,0,.35); display: flex; align-items: flex-start; justify-content: center; overflow: auto; padding: 40px 16px; }
        .backdrop[hidden] { display: none; }
        .sheet { background: #fff; border-radius: 14px; width: min(640px, 100%); padding: 22px 24px; box-shadow: 0 12px 40px rgba(0,0,0,.25); }
        .sheet h2 { margin: 0 0 6px; font-size: 20px; }
        .deadline { margin: 6px 0 4px; font-size: 14px; color: #1c1c1e; }
        .deadline.soon { color: var(--deny); font-weight: 600; }
        .usage { background: #f6f6f9; border-radius: 8px; padding: 8px 12px; margin: 8px 0; }
        .usage b { display: block; font-size: 12px; color: var(--muted); font-weight: 600; }
        .group { margin: 14px 0 2px; font-size: 13px; font-weight: 700; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
        .typerow { display: grid; grid-template-columns: 1fr auto; gap: 4px 12px; padding: 8px 0; border-top: 1px solid var(--line); }
        .typerow .name { font-weight: 600; }
        .typerow .controls { display: flex; flex-direction: column; gap: 4px; align-items: flex-end; }
        .typerow label { font-size: 13px; color: var(--muted); }
        .preview { grid-column: 1 / -1; font-size: 13px; color: var(--accent); }
        .preview.bad { color: var(--deny); }
        .buttons { display: flex; gap: 8px; justify-content: flex-end; margin-top: 18px; align-items: center; }
        .buttons .spacer { flex: 1; }
        .queue { font-size: 13px; color: var(--muted); }
        .source-order { margin-top: 14px; border-top: 1px solid var(--line); padding-top: 10px; }
        .source-order h3 { margin: 0 0 2px; font-size: 15px; }
        ol.sources { list-style: none; margin: 8px 0 0; padding: 0; }
        ol.sources li { display: flex; align-items: center; gap: 10px; padding: 6px 0; border-top: 1px solid var(--line); }
        ol.sources li:first-child { border-top: 0; }
        ol.sources .rank { width: 22px; height: 22px; border-radius: 11px; background: #e6f3ee; color: var(--accent); font-size: 13px; font-weight: 600; display: inline-flex; align-items: center; justify-content: center; }
        ol.sources .who { flex: 1; }
        ol.sources .name { font-weight: 600; }
        ol.sources button.action { padding: 2px 10px; }
        button.action:disabled { opacity: .4; cursor: default; }
        .source-order .buttons { margin-top: 8px; }
        svg.chart { width: 100%; height: 180px; background: #fafafa; border-radius: 8px; }
        svg.chart .bar { fill: var(--accent); }
        svg.chart .range { stroke: #7fb8a5; stroke-width: 3; }
        svg.chart .avg { fill: var(--accent); }
        svg.chart text { font-size: 10px; fill: var(--muted); }

        """.utf8)
}
