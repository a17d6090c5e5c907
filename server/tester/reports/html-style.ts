// The HTML report's only stylesheet, inlined in the page so the file works
// offline, attached to a CI job or opened from an e-mail: no fonts, images
// or scripts from anywhere. Follows the reader's light or dark setting.
export const REPORT_CSS = `
:root { color-scheme: light dark; --bg: #fff; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --card: #f6f8fa;
  --pass: #1a7f37; --fail: #cf222e; --skip: #9a6700; --err: #8250df; }
@media (prefers-color-scheme: dark) { :root { --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --line: #3d444d; --card: #151b23;
  --pass: #3fb950; --fail: #f85149; --skip: #d29922; --err: #ab7df8; } }
* { box-sizing: border-box; }
body { margin: 0; padding: 24px; background: var(--bg); color: var(--fg); font: 14px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
h1 { font-size: 22px; margin: 0 0 4px; word-break: break-word; }
h2 { font-size: 17px; margin: 28px 0 8px; }
.meta { color: var(--muted); margin: 0 0 16px; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 12px; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 12px; }
.card .label { display: block; color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .04em; }
.card .value { display: block; font-size: 24px; font-weight: 600; }
.card .sub { color: var(--muted); font-size: 12px; }
.card.passed .value { color: var(--pass); } .card.failed .value { color: var(--fail); } .card.skipped .value { color: var(--skip); }
table { width: 100%; border-collapse: collapse; table-layout: fixed; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; font-size: 12px; }
th.request { width: 26%; } th.method { width: 8%; } th.code, th.time { width: 8%; } th.result { width: 10%; }
td.url { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; word-break: break-all; }
tr.detail td { border-bottom: 1px solid var(--line); padding-top: 0; }
.badge { display: inline-block; padding: 0 8px; border-radius: 10px; font-size: 12px; font-weight: 600; color: #fff; }
.badge.passed { background: var(--pass); } .badge.failed { background: var(--fail); } .badge.skipped { background: var(--skip); }
.badge.error { background: var(--err); } .badge.cancelled, .badge.queued, .badge.running { background: var(--muted); }
details summary { cursor: pointer; color: var(--muted); }
ul.tests { list-style: none; margin: 6px 0; padding: 0; }
ul.tests li { padding: 2px 0; }
.mark { display: inline-block; width: 1.4em; font-weight: 700; }
.mark.passed { color: var(--pass); } .mark.failed { color: var(--fail); } .mark.skipped { color: var(--skip); }
pre { margin: 4px 0 8px; padding: 8px; background: var(--card); border: 1px solid var(--line); border-radius: 6px;
  white-space: pre-wrap; word-break: break-word; font: 12px/1.45 ui-monospace, SFMono-Regular, Menlo, monospace; }
pre.error { border-color: var(--fail); }
.empty { color: var(--muted); }
`;
