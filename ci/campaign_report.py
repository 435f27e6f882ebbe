"""The campaign's report (ci/campaign.py): report.html, report.md and coverage.svg.

No plotting library: the SVG is written here (small multiples, one panel per target: the
coverage libFuzzer or AFL++ counts, over the seconds of the target's run, with the corpus
size in grey), so the report needs nothing beyond python3.
"""
import html
import os

PANEL_W, PANEL_H, COLS = 300, 150, 3
PAD_L, PAD_R, PAD_T, PAD_B = 46, 12, 24, 26


def _fmt(n):
    return "{:,}".format(int(n)) if n is not None else "-"


def _dur(s):
    s = int(round(s))
    return "%dh%02dm" % (s // 3600, s % 3600 // 60) if s >= 3600 else \
        "%dm%02ds" % (s // 60, s % 60) if s >= 60 else "%ds" % s


def _polyline(points, x0, y0, w, h, xmax, ymin, ymax, style):
    if not points:
        return ""
    span = (ymax - ymin) or 1
    pts = " ".join("%.1f,%.1f" % (x0 + w * (t / xmax if xmax else 0),
                                   y0 + h - h * (v - ymin) / span) for t, v in points)
    if len(points) == 1:  # one status line: a dot
        x, y = pts.split(",")
        return '<circle cx="%s" cy="%s" r="2.5" %s/>' % (x, y, style.replace("stroke", "fill"))
    return '<polyline fill="none" points="%s" %s/>' % (pts, style)


def svg(summary):
    rows = summary["targets"]
    n = max(1, len(rows))
    cols = min(COLS, n)
    nrows = (n + cols - 1) // cols
    W, H = cols * PANEL_W, nrows * PANEL_H + 30
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'viewBox="0 0 %d %d" font-family="sans-serif" font-size="10">' % (W, H, W, H),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="6" y="16" font-size="13" font-weight="bold">Coverage over time '
           '(%s, %s per target, %d cores)</text>' % (html.escape(summary["engine"]),
                                                    _dur(summary["slice"]), summary["jobs"]),
           '<text x="%d" y="16" text-anchor="end" fill="#1f77b4">&#9472; cov (edges)</text>'
           '<text x="%d" y="16" text-anchor="end" fill="#999">&#9472; corpus (inputs)</text>'
           % (W - 110, W - 6)]
    for i, r in enumerate(rows):
        px, py = (i % cols) * PANEL_W, 30 + (i // cols) * PANEL_H
        x0, y0 = px + PAD_L, py + PAD_T
        w, h = PANEL_W - PAD_L - PAD_R, PANEL_H - PAD_T - PAD_B
        tl = r["timeline"]
        cov = [(p["t"], p["cov"]) for p in tl]
        corp = [(p["t"], p["corp"]) for p in tl]
        xmax = max([r["slice"]] + [p["t"] for p in tl])
        nf = len(r["findings"])
        title = "%s: cov %s, %s execs%s" % (r["target"], _fmt(r["cov"]), _fmt(r["execs"]),
                                            ", %d finding%s" % (nf, "s" * (nf != 1))
                                            if nf else "")
        out.append('<text x="%d" y="%d" font-weight="bold" fill="%s">%s</text>' %
                   (px + 6, py + 14, "#c00" if nf else "black", html.escape(title)))
        out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="#fafafa" '
                   'stroke="#ccc"/>' % (x0, y0, w, h))
        if cov:
            lo = min(v for _, v in cov)
            hi = max(v for _, v in cov)
            ymin = max(0, lo - (hi - lo) * 0.1 - 1)
            ymax = hi + (hi - lo) * 0.1 + 1
            out.append('<text x="%d" y="%d" text-anchor="end">%s</text>' %
                       (x0 - 3, y0 + 8, _fmt(ymax)))
            out.append('<text x="%d" y="%d" text-anchor="end">%s</text>' %
                       (x0 - 3, y0 + h, _fmt(ymin)))
            if corp and max(v for _, v in corp) > 0:
                clo, chi = min(v for _, v in corp), max(v for _, v in corp)
                out.append(_polyline(corp, x0, y0, w, h, xmax, clo - 1, chi + 1,
                                     'stroke="#999" stroke-width="1" stroke-dasharray="3,2"'))
            out.append(_polyline(cov, x0, y0, w, h, xmax, ymin, ymax,
                                 'stroke="#1f77b4" stroke-width="1.8"'))
        else:
            out.append('<text x="%d" y="%d" text-anchor="middle" fill="#c00">no status line '
                       '(see the log)</text>' % (x0 + w // 2, y0 + h // 2))
        out.append('<text x="%d" y="%d">0 s</text>' % (x0, y0 + h + 12))
        out.append('<text x="%d" y="%d" text-anchor="end">%s</text>' %
                   (x0 + w, y0 + h + 12, _dur(xmax)))
    out.append("</svg>")
    return "\n".join(out)


def _rows(summary):
    for r in summary["targets"]:
        m = r["merge"]
        eps = r["execs"] / r["wall"] if r["wall"] else 0
        first = r["timeline"][0]["cov"] if r["timeline"] else None
        yield dict(target=r["target"], time=_dur(r["wall"]), execs=_fmt(r["execs"]),
                   eps=_fmt(eps), cov="%s &rarr; %s" % (_fmt(first), _fmt(r["cov"]))
                   if first is not None else "-",
                   corpus="%d &rarr; %d (%s new)" % (m["before"][0], m["after"][0],
                                                     _fmt(m.get("beyond_committed"))),
                   findings=len(r["findings"]))


def markdown(summary):
    s = summary
    nf = sum(len(r["findings"]) for r in s["targets"])
    lines = ["# nicref fuzz campaign %s" % s["stamp"], "",
             "**%s** &middot; %d targets &middot; %s &middot; %d cores &middot; %s per target "
             "&middot; wall %s (build %s) &middot; commit %s" %
             ("%d FINDING%s" % (nf, "S" * (nf != 1)) if nf else "no findings",
              len(s["targets"]), s["engine"], s["jobs"], _dur(s["slice"]),
              _dur(s["wall_secs"]), _dur(s["build_secs"]), s["commit"]), "",
             "![coverage over time](coverage.svg)", "",
             "| target | time | execs | execs/s | cov (first &rarr; last) | corpus: store + corpora/ &rarr; merged "
             "(not in corpora/) | findings |", "|---|---:|---:|---:|---:|---:|---:|"]
    for row in _rows(s):
        lines.append("| {target} | {time} | {execs} | {eps} | {cov} | {corpus} | {findings} |"
                     .format(**row))
    lines += ["", "## Findings", ""]
    if not nf:
        lines += ["None: no crash, timeout, OOM or leak in any target.", ""]
    for r in s["targets"]:
        for g in r["findings"]:
            lines += ["### %s `%s`: %s" % (r["target"], g["id"], g["kind"]), "",
                      "- signature: `%s`" % g["signature"],
                      "- inputs: %d (this campaign), reproducer `%s` (%d bytes, from %d)" %
                      (g["count"], g["reproducer"], g["reproducer_size"], g["original_size"]),
                      "- first line: `%s`" % g["headline"] if g["headline"] else
                      "- (no report line: see %s/report.txt)" % g["dir"]]
            for fn, loc in g["frames"]:
                lines.append("  - `%s` %s" % (fn, loc))
            lines += ["", "```sh"] + g["commands"] + ["```", ""]
    lines += ["## Where things are", "",
              "- corpus store (kept for the next campaign): `%s`" % s["store"],
              "- per target: `work/<target>/` (engine log, merge log, raw artifacts)",
              "- findings: `findings/<target>-<id>/` (reproducer, minimized, report.txt)",
              "- machine-readable: `summary.json`", ""]
    return "\n".join(lines)


def page(summary, svg_text):
    s = summary
    nf = sum(len(r["findings"]) for r in s["targets"])
    h = ['<!doctype html><html><head><meta charset="utf-8"><title>nicref fuzz campaign %s'
         '</title><style>body{font-family:sans-serif;margin:1.5em;max-width:1000px}'
         'table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px;'
         'text-align:right}td:first-child,th:first-child{text-align:left}'
         '.bad{color:#c00}.ok{color:#080}pre{background:#f4f4f4;padding:6px;overflow-x:auto}'
         'code{font-size:90%%}</style></head><body>' % html.escape(s["stamp"]),
         '<h1>nicref fuzz campaign %s</h1>' % html.escape(s["stamp"]),
         '<p class="%s"><b>%s</b></p>' % ("bad" if nf else "ok",
                                          "%d finding%s" % (nf, "s" * (nf != 1)) if nf
                                          else "No findings"),
         '<p>%d targets, %s, %d cores, %s per target; wall %s (build %s); commit %s on %s.</p>'
         % (len(s["targets"]), html.escape(s["engine"]), s["jobs"], _dur(s["slice"]),
            _dur(s["wall_secs"]), _dur(s["build_secs"]), html.escape(s["commit"]),
            html.escape(s["host"])),
         '<table><tr><th>target</th><th>time</th><th>execs</th><th>execs/s</th>'
         '<th>cov (first &rarr; last)</th><th>corpus: store + corpora/ &rarr; merged (not in corpora/)</th>'
         '<th>findings</th></tr>']
    for row in _rows(s):
        row["cls"] = "bad" if row["findings"] else ""
        h.append('<tr><td>{target}</td><td>{time}</td><td>{execs}</td><td>{eps}</td>'
                 '<td>{cov}</td><td>{corpus}</td><td class="{cls}">{findings}</td></tr>'
                 .format(**row))
    h.append('</table><h2>Coverage over time</h2>' + svg_text + '<h2>Findings</h2>')
    if not nf:
        h.append('<p>None: no crash, timeout, OOM or leak in any target.</p>')
    for r in s["targets"]:
        for g in r["findings"]:
            h.append('<h3 class="bad">%s <code>%s</code>: %s</h3>' %
                     (html.escape(r["target"]), g["id"], html.escape(g["kind"])))
            h.append('<p>signature <code>%s</code><br>%d input%s; reproducer <code>%s</code> '
                     '(%d bytes, from %d)</p>' %
                     (html.escape(g["signature"]), g["count"], "s" * (g["count"] != 1),
                      html.escape(g["reproducer"]), g["reproducer_size"], g["original_size"]))
            if g["headline"]:
                h.append('<pre>%s</pre>' % html.escape(g["headline"]))
            if g["frames"]:
                h.append('<ol>%s</ol>' % "".join('<li><code>%s</code> %s</li>' %
                                                 (html.escape(fn), html.escape(loc))
                                                 for fn, loc in g["frames"]))
            h.append('<pre>%s</pre>' % html.escape("\n".join(g["commands"])))
    h.append('<p>Corpus store: <code>%s</code>. Per target: <code>work/&lt;target&gt;/</code>;'
             ' findings: <code>findings/</code>; data: <code>summary.json</code>.</p>'
             % html.escape(s["store"]))
    h.append('</body></html>')
    return "\n".join(h)


def write(summary, out_dir):
    svg_text = svg(summary)
    with open(os.path.join(out_dir, "coverage.svg"), "w") as f:
        f.write(svg_text + "\n")
    with open(os.path.join(out_dir, "report.md"), "w") as f:
        f.write(markdown(summary))
    with open(os.path.join(out_dir, "report.html"), "w") as f:
        f.write(page(summary, svg_text))
