/**
 * The portal's one stylesheet (`/assets/portal.css`): system fonts (no web font is fetched), one
 * column that reads at 360 px and widens to 1,080 px, tables that scroll sideways inside their
 * box on a narrow screen rather than widening the page.
 */
export const PORTAL_CSS = `:root{--ink:#18212f;--muted:#5b6678;--line:#dde3ea;--bg:#f6f8fa;--card:#fff;--accent:#1f6f5c;--accent-ink:#fff;--danger:#b42318;--warn-bg:#fff4e5}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--ink);background:var(--bg)}
.wrap{max-width:1080px;margin:0 auto;padding:0 16px}
.bar{background:var(--card);border-bottom:1px solid var(--line)}
.bar-inner{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:8px;padding-top:12px;padding-bottom:12px}
.brand{font-weight:700;font-size:1.15rem;color:var(--ink);text-decoration:none;letter-spacing:-.01em}
.brand span{color:var(--accent)}
nav{display:flex;flex-wrap:wrap;gap:4px 16px}
nav a{color:var(--muted);text-decoration:none;font-size:.95rem}
nav a:hover,nav a[aria-current=page]{color:var(--accent)}
main{padding-top:24px;padding-bottom:32px}
h1{font-size:1.9rem;line-height:1.2;margin:.2em 0 .4em;letter-spacing:-.02em}
h2{font-size:1.3rem;margin:1.2em 0 .5em}
h2 small,th small{display:block;color:var(--muted);font-weight:400;font-size:.8rem}
h3{font-size:1rem;margin:0 0 .3em;color:var(--muted);font-weight:600}
.lead{font-size:1.1rem;color:var(--muted);max-width:46em}
.hero{padding:16px 0 8px}
.actions{display:flex;flex-wrap:wrap;gap:12px;align-items:center}
a{color:var(--accent)}
code{font:.9em ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#eef2f5;padding:.1em .35em;border-radius:4px}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:20px;margin:0 0 20px;max-width:100%}
.card>:first-child{margin-top:0}
.card>:last-child{margin-bottom:0}
form.card{max-width:520px}
body[data-page=admin] .wrap{max-width:1320px}
form.card.inline{max-width:none}
.fields{display:grid;gap:0 12px}
@media (min-width:800px){.fields{grid-template-columns:1fr 1fr 2fr auto;align-items:end}.fields label{margin-top:0}.fields button{margin-top:0}}
label{display:block;font-weight:600;margin:12px 0 4px}
label:first-child{margin-top:0}
input,select{width:100%;height:44px;font:inherit;padding:8px 12px;border:1px solid #c4ccd6;border-radius:8px;background:#fff;color:var(--ink)}
input:focus,select:focus,button:focus-visible,a:focus-visible{outline:3px solid #9fd3c4;outline-offset:1px}
button,.button{display:inline-block;font:inherit;font-weight:600;padding:10px 18px;margin-top:16px;border:1px solid var(--accent);border-radius:8px;background:var(--accent);color:var(--accent-ink);cursor:pointer;text-decoration:none}
.actions .button{margin-top:0}
button.secondary,.button.secondary{background:#fff;color:var(--accent)}
button.danger{background:#fff;color:var(--danger);border-color:var(--danger)}
button[disabled]{opacity:.6;cursor:wait}
.table{border-collapse:collapse;width:100%;background:var(--card);font-size:.95rem}
.table th,.table td{text-align:left;padding:10px 12px;border-bottom:1px solid var(--line);vertical-align:middle}
.table thead th{font-size:.8rem;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);background:#fbfcfd}
.scroll{overflow-x:auto;border:1px solid var(--line);border-radius:10px;margin-bottom:20px}
.keys{font-size:.9rem}
.keys td{white-space:nowrap}
.keys td.c-label{white-space:normal;min-width:10em}
.keys td.c-created,.keys td.c-expires{white-space:normal;min-width:6.5em}
.keys td select{width:auto;height:auto;padding:4px 6px;font-size:.9rem}
.keys td button{margin:0;padding:4px 10px;font-size:.85rem}
.keys .c-actions{white-space:nowrap}
.error{color:var(--danger);font-weight:600}
.notice{background:#e8f5f0;border:1px solid #b7e0d2;border-radius:8px;padding:10px 14px}
.meta,.note{color:var(--muted);font-size:.9rem}
.shown-key{border-color:#e0b45c;background:var(--warn-bg)}
.shown-key:not(.card){border:1px solid #e0b45c;border-radius:8px;padding:12px 14px;margin-top:16px}
.shown-key:not(.card)>:first-child{margin-top:0}
.shown-key:not(.card)>:last-child{margin-bottom:0}
.key{display:block;word-break:break-all;font-size:1rem;padding:10px;margin:8px 0;background:#fff;border:1px dashed #e0b45c}
.stats{display:grid;grid-template-columns:repeat(auto-fit,minmax(220px,1fr));gap:16px}
.stat{border:1px solid var(--line);border-radius:8px;padding:14px}
.big{font-size:1.6rem;font-weight:700;margin:0}
.big small{font-size:.9rem;font-weight:400;color:var(--muted)}
.meter{height:8px;background:#e9eef2;border-radius:4px;overflow:hidden;margin:8px 0}
.meter div{height:100%;width:0;background:var(--accent)}
.foot{color:var(--muted);font-size:.85rem;padding-bottom:24px}
[hidden]{display:none!important}
@media (max-width:480px){h1{font-size:1.5rem}.card{padding:16px}.table th,.table td{padding:8px 4px}.table th:first-child,.table td:first-child{padding-left:8px}.table{font-size:.85rem}.table thead th{font-size:.68rem;letter-spacing:0}}
`;
