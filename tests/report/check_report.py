#!/usr/bin/env python3
"""The profile's HTML report, rendered by a real browser (headless Chromium).

  check_report.py WRITER DATA_DIR OUT_DIR CASE
  check_report.py XS12 KERNEL OUT_DIR live|live-banks

WRITER is report_write (a C program calling xs_profile_html_write); CASE names
a profile JSON in DATA_DIR (or "big": 20 000 instructions made here; or
"live" / "live-banks": the page `xs12 run KERNEL --profile` writes, of lds_stream
or of lds_banks with bank conflicts). The page
is written to OUT_DIR/report-CASE.html, Chromium serialises the DOM after the
page's script has run (--dump-dom), and the checks below read that DOM; a
screenshot (OUT_DIR/report-CASE.png) is checked for size and for the colours
of the stall bars, and stays there to be looked at.

How Chromium is driven, and why (Debian 12's package "chromium"):
- the real binary, /usr/lib/chromium/chromium, not the /usr/bin wrapper (which
  sources /etc/chromium.d and prints a shell warning on some machines);
- --no-sandbox: the sandbox refuses to start as root (containers, CI);
- HOME and TMPDIR point into a scratch directory, with --user-data-dir a fresh
  profile there for each run: Chromium leaves crash-report and cache litter
  under HOME, and two runs sharing a profile make the second exit at once;
- --virtual-time-budget lets timers and load handlers run in virtual time
  (fast-forwarded, not waited) before the dump or the picture is taken;
  --run-all-compositor-stages-before-draw makes the picture a finished frame;
- a fixed --window-size and --hide-scrollbars keep the pictures identical run
  to run; the report names its fonts (DejaVu) for the same reason;
- the exit status says little (a missing file gives 0 and an empty dump), so
  the output itself is checked: a non-empty DOM with the page's marker, a PNG
  of the right size; --enable-logging=stderr puts console messages and
  uncaught exceptions on stderr, and any "Uncaught" there fails the check;
- every run has a time limit; at the limit its whole process group is killed.

No network: the page is a local file with no external resources, and the
browser's own background fetches (component updates, sync) are turned off.
Without Chromium the test is skipped (exit 77), except under CI=1, where it
fails: a CI machine is meant to have it (scripts/bootstrap installs it).
"""
import bisect
import html.parser
import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import zlib

SKIP = 77
BROWSER_TIMEOUT = 60          # seconds per Chromium run
WIDTH, HEIGHT = 1200, 800     # the screenshot's size

REASON_COLOR = {              # the report's colours (src/runtime/xs_rt_profile_report.html)
    "vmcnt": (0x2a, 0x6f, 0xdb), "lgkmcnt": (0x8e, 0x44, 0xad), "valu-dep": (0xe6, 0x7e, 0x22),
    "pipe-busy": (0xc0, 0x39, 0x2b), "barrier": (0x7f, 0x55, 0x39), "end-of-program": (0x5f, 0x6b, 0x7a),
}

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)
    return cond


# ---- a small DOM from Chromium's serialisation (html.parser, standard library) ----
# Each element knows its span [idx, end) in document order, and the document keeps
# its elements by tag and by class, so a query is a bisection into one list rather
# than a walk of the 20 000-row tree.
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Node:
    def __init__(self, doc, tag, attrs, parent):
        self.doc, self.tag, self.attrs, self.parent, self.children = doc, tag, dict(attrs), parent, []
        self.idx = len(doc.nodes)
        self.end = None

    def cls(self):
        return (self.attrs.get("class") or "").split()

    def text(self):
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def all(self, tag=None, cls=None, **attrs):
        d = self.doc
        pool = d.by_class.get(cls, []) if cls else d.by_tag.get(tag, []) if tag else d.nodes
        lo = bisect.bisect_right(pool, self.idx, key=lambda n: n.idx)
        hi = bisect.bisect_left(pool, self.end, key=lambda n: n.idx)
        return [n for n in pool[lo:hi]
                if (tag is None or n.tag == tag) and (cls is None or cls in n.cls())
                and all(n.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items())]

    def first(self, tag=None, cls=None, **attrs):
        found = self.all(tag, cls, **attrs)
        return found[0] if found else None


class Builder(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.nodes, self.by_tag, self.by_class = [], {}, {}
        self.root = Node(self, "#root", {}, None)
        self.root.idx = -1
        self.cur = self.root

    def add(self, tag, attrs):
        n = Node(self, tag, attrs, self.cur)
        self.nodes.append(n)
        self.by_tag.setdefault(tag, []).append(n)
        for c in n.cls():
            self.by_class.setdefault(c, []).append(n)
        self.cur.children.append(n)
        return n

    def handle_starttag(self, tag, attrs):
        n = self.add(tag, attrs)
        if tag in VOID:
            n.end = len(self.nodes)
        else:
            self.cur = n

    def handle_startendtag(self, tag, attrs):
        self.add(tag, attrs).end = len(self.nodes)

    def handle_endtag(self, tag):
        n = self.cur
        while n is not self.root and n.tag != tag:
            n = n.parent
        if n is not self.root:
            m = self.cur
            while m is not n.parent:       # close what the end tag closes
                m.end = len(self.nodes)
                m = m.parent
            self.cur = n.parent

    def handle_data(self, data):
        self.cur.children.append(data)


def parse(text):
    b = Builder()
    b.feed(text)
    b.close()
    for n in b.nodes + [b.root]:
        if n.end is None:
            n.end = len(b.nodes)
    return b.root


# ---- PNG: size, and the pixels (8-bit RGB/RGBA, as Chromium writes them) ----
def png_pixels(data, max_rows=400):
    """(width, height, the set of RGB colours in the first max_rows rows): the stall bars
    checked are near the top, and un-filtering is slow in Python."""
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        return None
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, ctype = ihdr[0], ihdr[1], ihdr[2], ihdr[3]
    if depth != 8 or ctype not in (2, 6):
        return w, h, None
    bpp = 3 if ctype == 2 else 4
    raw, stride = zlib.decompress(idat), w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(min(h, max_rows)):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    colours = set()
    for line in rows:
        for i in range(0, stride, bpp):
            colours.add((line[i], line[i + 1], line[i + 2]))
    return w, h, colours


# ---- Chromium ----
def find_chromium():
    """XS12_CHROMIUM when set (a path; anything not executable counts as no browser),
    else Debian's binary, else a chromium on PATH."""
    if "XS12_CHROMIUM" in os.environ:
        c = os.environ["XS12_CHROMIUM"]
        return c if c and os.access(c, os.X_OK) else None
    if os.access("/usr/lib/chromium/chromium", os.X_OK):
        return "/usr/lib/chromium/chromium"
    return shutil.which("chromium") or shutil.which("chromium-browser")


def run_browser(chromium, scratch, tag, args, url):
    """One Chromium run with its own profile; (stdout, stderr, seconds)."""
    env = dict(os.environ, HOME=scratch, TMPDIR=scratch)
    cmd = [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
           "--hide-scrollbars", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync", "--user-data-dir=" + os.path.join(scratch, "profile-" + tag),
           "--window-size=%d,%d" % (WIDTH, HEIGHT), "--run-all-compositor-stages-before-draw",
           "--virtual-time-budget=5000"] + args + [url]
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, start_new_session=True)
    try:
        out, err = p.communicate(timeout=BROWSER_TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)     # the browser and its helpers: the group this run started
        p.communicate()
        sys.exit(f"check_report: chromium {tag} did not finish within {BROWSER_TIMEOUT} s")
    return out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), time.monotonic() - t0


# The probe is appended after the page's </html> (a script there still runs), so the
# report holds no test code. After load it reads layout figures and clicks the first
# hot spot, then writes key=value lines into <pre id="probe">.
PROBE = r"""
<script>
window.addEventListener("load", function () { setTimeout(function () {
  var out = [];
  function put(k, v) { out.push(k + "=" + v); }
  try {
    var t = document.querySelector("svg text");
    put("svg_text_w", t ? t.getBBox().width.toFixed(1) : -1);
    var d = document.querySelector("table.dis");
    put("dis_w", d ? Math.round(d.getBoundingClientRect().width) : 0);
    var o = document.querySelector("svg.occupancy");
    put("occ_w", o ? Math.round(o.getBoundingClientRect().width) : 0);
    var bar = document.querySelector("table.dis tr.ins .bar i");
    put("seg_w", bar ? bar.getBoundingClientRect().width.toFixed(1) : 0);
    var hot = document.querySelector("table.hot tbody tr");
    if (hot) {
      var id = hot.getAttribute("data-target"), before = window.scrollY;
      hot.querySelector("td").click();
      var row = document.getElementById(id), r = row.getBoundingClientRect();
      put("click_target", id);
      put("click_flash", row.classList.contains("flash") ? 1 : 0);
      put("click_in_view", r.top >= 0 && r.bottom <= window.innerHeight ? 1 : 0);
      put("scroll_before", Math.round(before));
      put("scroll_after", Math.round(window.scrollY));
    }
  } catch (e) { put("probe_error", e.message); }
  var pre = document.createElement("pre");
  pre.id = "probe";
  pre.textContent = out.join("\n");
  document.body.appendChild(pre);
}, 100); });
</script>
"""


def big_profile(n=20000, hottest=17321):
    """20 000 instructions, deterministic; the hottest one deep in the code."""
    reasons = ["vmcnt", "vscnt", "lgkmcnt", "valu-dep", "pipe-busy", "barrier", "export", "counter-full"]
    ops = ["v_add_f32_e32 v%d, v%d, v%d", "s_waitcnt vmcnt(%d)", "global_load_dword v%d, v[%d:%d], off",
           "v_mul_f32_e32 v%d, v%d, v%d", "s_add_u32 s%d, s%d, s%d", "ds_read_b32 v%d, v%d offset:%d"]
    ins, stalls = [], {}
    for i in range(n):
        op = ops[i % len(ops)]
        cyc = 4 + (i * 7919) % 61
        st = {}
        if i % 6 == 1:
            st["vmcnt"] = cyc - 4
        elif i % 6 == 5:
            st["lgkmcnt"] = cyc // 2
        elif i % 11 == 0:
            st["valu-dep"] = 3
        if i == hottest:
            cyc, st = 5000, {"vmcnt": 4800, "pipe-busy": 100}
        for k, v in st.items():
            stalls[k] = stalls.get(k, 0) + v
        src = {"file": "big.cl", "line": 10 + i // 40, "text": "x = work(x, %d);" % (i // 40)} if i % 3 else None
        ins.append({"pc": hex(0x1800 + 8 * i), "offset": 8 * i, "text": op % (i % 200, (i + 1) % 200, (i + 2) % 200)[:op.count("%d")],
                    "issues": 1 + i % 3, "cycles": cyc, "stalls": st, "source": src,
                    "label": "BB0_%d" % (i // 500) if i % 500 == 0 else None})
    hot = sorted(range(n), key=lambda i: (-ins[i]["cycles"], i))[:20]
    wc = sum(x["cycles"] for x in ins)
    return {"format": "xs12-profile-1", "machine": "Xbox Series S", "sclk_mhz": 1565, "mode": "timing",
            "stall_reasons": reasons, "total_cycles": 250000,
            "kernels": [{"name": "big", "file": "big.hsaco", "dispatches": [1], "wave_instructions": 4 * n,
                         "wave_cycles": wc, "stalls": stalls, "top_stall": max(stalls, key=stalls.get),
                         "instructions": ins, "hot": hot}],
            "dispatches": [{"id": 1, "kernel": "big", "queue": 0, "start_cycle": 0, "end_cycle": 250000,
                            "waves_launched": 4, "wave_instructions": 4 * n}],
            "occupancy": {"cycles": list(range(0, 250001, 2500)),
                          "series": [{"queue": 0, "waves": [min(4, k) for k in range(101)]}], "max_waves": 4},
            "waits": {"wave-slot": 0, "vgpr": 0, "lds": 0, "barrier": 0, "scratch-slot": 0, "cu-mask-or-limit": 0},
            "counters": None}


# ---- the oracle: what the page must show, computed from the JSON here ----
def expected(p):
    ks = []
    for k in p.get("kernels", []):
        ins = k.get("instructions", [])
        present = set()
        for x in ins:
            present |= {r for r, v in (x.get("stalls") or {}).items() if v > 0}
        present |= {r for r, v in (k.get("stalls") or {}).items() if v > 0}
        srcs, last = 0, None
        for x in ins:
            s = x.get("source")
            if s:
                key = (s.get("file"), s.get("line"))
                if key != last:
                    srcs, last = srcs + 1, key
        hot = k.get("hot")
        if hot is None:
            hot = sorted((i for i in range(len(ins)) if ins[i].get("cycles", 0) > 0),
                         key=lambda i: (-ins[i]["cycles"], i))[:20]
        hottest = max(range(len(ins)), key=lambda i: (ins[i].get("cycles", 0), -i)) if ins else None
        ks.append({"name": k.get("name"), "n": len(ins), "present": present, "srcs": srcs,
                   "labels": sum(1 for x in ins if x.get("label")), "hot": hot, "ins": ins, "hottest": hottest})
    return ks


def check_dom(case, p, root, probe):
    check(root.first(id="xs12-error") is None,
          f"{case}: the page reports an error: {root.first(id='xs12-error').text() if root.first(id='xs12-error') else ''}")
    check(root.first(id="xs12-ok") is not None, f"{case}: no #xs12-ok marker (the page did not finish rendering)")
    header = root.first("header")
    if not check(header is not None, f"{case}: no header"):
        return
    check(p.get("machine", "") in header.first("h1").text(), f"{case}: the header does not name the machine")
    check(("%d" % p.get("total_cycles", 0)) in header.first(id="total-cycles").text().replace(",", ""),
          f"{case}: the header's total cycles are not {p.get('total_cycles', 0)}")
    for key, el in (("overflow", "overflow"), ("trace_truncated", "trace-truncated")):
        check((header.first(id=el) is not None) == (p.get(key) is True),
              f"{case}: the header's note on {key} does not match {key}={p.get(key)}")
    sections = root.all("section", cls="kernel")
    exp = expected(p)
    check(len(sections) == len(exp), f"{case}: {len(sections)} kernel sections, expected {len(exp)}")
    krows = header.first(id="kernels").first("tbody").all("tr")
    for ki, (sec, e) in enumerate(zip(sections, exp)):
        k = p["kernels"][ki]
        name = sec.attrs.get("data-kernel")
        check(name == e["name"], f"{case}: kernel {ki} is {name!r}, expected {e['name']!r}")
        check(e["name"] in sec.first("h2").text(), f"{case}: kernel {ki}'s heading lacks its name {e['name']!r}")
        top = k.get("top_stall")
        if top is not None and ki < len(krows):
            check(krows[ki].first("td", cls="top-stall").text().strip() == top,
                  f"{case}: kernel {ki}'s top stall in the header is not {top!r}")
        rows = sec.all("tr", cls="ins")
        check(len(rows) == e["n"], f"{case}: kernel {ki}: {len(rows)} disassembly rows, expected {e['n']}")
        if rows and e["n"]:
            check(e["ins"][-1]["text"] in rows[-1].text(), f"{case}: kernel {ki}'s last row is not its last instruction")
        check(len(sec.all("tr", cls="src")) == e["srcs"],
              f"{case}: kernel {ki}: {len(sec.all('tr', cls='src'))} source lines, expected {e['srcs']}")
        check(len(sec.all("tr", cls="lbl")) == e["labels"], f"{case}: kernel {ki}: labels shown != {e['labels']}")
        legend = {li.attrs.get("data-reason") for li in sec.all("li", cls="reason")}
        check(legend == e["present"], f"{case}: kernel {ki}'s legend lists {sorted(legend)}, expected {sorted(e['present'])}")
        hot = sec.first("table", cls="hot")
        if e["hot"]:
            if check(hot is not None, f"{case}: kernel {ki} has no hot-spot table"):
                hrows = hot.first("tbody").all("tr")
                check(len(hrows) == len(e["hot"]), f"{case}: kernel {ki}: {len(hrows)} hot spots, expected {len(e['hot'])}")
                want = e["ins"][e["hottest"]]["text"]
                check(hrows[0].first("td", cls="ins").text() == want,
                      f"{case}: kernel {ki}'s first hot spot is {hrows[0].first('td', cls='ins').text()!r}, expected {want!r}")
                check(hrows[0].attrs.get("data-target") == "k%d-i%d" % (ki, e["hottest"]),
                      f"{case}: kernel {ki}'s first hot spot does not point at its line")
                cyc = e["ins"][e["hottest"]].get("cycles", 0)
                check(hrows[0].all("td")[3].text().replace(",", "") == str(cyc),
                      f"{case}: kernel {ki}'s first hot spot does not show {cyc} cycles")
        else:
            check(hot is None, f"{case}: kernel {ki} has a hot-spot table without instructions")
        # LDS bank conflicts: a row per instruction that has them, most first, each
        # pointing at its line and badged there
        banks = sorted((i for i, x in enumerate(e["ins"]) if x.get("lds_bank_conflict_cycles", 0) > 0),
                       key=lambda i: (-e["ins"][i]["lds_bank_conflict_cycles"], i))
        btab = sec.first("table", cls="banks")
        if banks:
            if check(btab is not None, f"{case}: kernel {ki} has no LDS bank-conflict table"):
                brows = btab.first("tbody").all("tr")
                got = [(r.attrs.get("data-target"), r.all("td")[2].text().replace(",", "")) for r in brows]
                want = [("k%d-i%d" % (ki, i), str(e["ins"][i]["lds_bank_conflict_cycles"])) for i in banks]
                check(got == want, f"{case}: kernel {ki}'s bank-conflict rows are {got}, expected {want}")
            total = k.get("lds_bank_conflict_cycles", sum(e["ins"][i]["lds_bank_conflict_cycles"] for i in banks))
            note = sec.first(id="k%d-banks" % ki)
            check(note is not None and note.text().replace(",", "").startswith(str(total)),
                  f"{case}: kernel {ki}'s bank-conflict note does not say {total}")
        else:
            check(btab is None, f"{case}: kernel {ki} has a bank-conflict table without conflicts")
        badged = [i for i, r in enumerate(rows) if r.first("span", cls="bc") is not None]
        check(badged == sorted(banks), f"{case}: kernel {ki}: rows {badged} carry a bank-conflict badge, expected {sorted(banks)}")
    # charts
    occ = p.get("occupancy") or {}
    series = [s for s in occ.get("series", []) if s.get("waves")] if occ.get("cycles") else []
    lines = root.all("path", cls="occ-line")
    check(len(lines) == len(series), f"{case}: {len(lines)} occupancy lines, expected {len(series)}")
    for path in lines:
        check(path.attrs.get("d", "").count("V") >= 1, f"{case}: an occupancy line has no steps")
    ds = p.get("dispatches", [])
    check(len(root.all("rect", cls="disp")) == len(ds), f"{case}: dispatch bars != {len(ds)}")
    waits = p.get("waits") or {}
    wsvg = root.first("svg", cls="waits")
    if waits:
        bars = {r.attrs["data-name"]: float(r.attrs["data-value"]) for r in wsvg.all("rect", cls="hbar")} if wsvg else {}
        check(bars == {k: float(v) for k, v in waits.items()}, f"{case}: the wait bars show {bars}, expected {waits}")
    ssvg = root.first("svg", cls="stalls")
    tot = {}
    for k in p.get("kernels", []):
        ks = k.get("stalls")
        if not isinstance(ks, dict):      # the page sums the instructions' then
            ks = {}
            for x in k.get("instructions", []):
                for r, v in (x.get("stalls") or {}).items():
                    ks[r] = ks.get(r, 0) + v
        for r, v in ks.items():
            tot[r] = tot.get(r, 0) + v
    if ssvg:
        for r in ssvg.all("rect", cls="hbar"):
            check(float(r.attrs["data-value"]) == tot.get(r.attrs["data-name"], 0),
                  f"{case}: the stall bar {r.attrs['data-name']} shows {r.attrs['data-value']}")
    timing = p.get("mode") == "timing" and p.get("sclk_mhz", 0) > 0
    if root.first("svg", cls="timeline"):
        check((len(root.first("svg", cls="timeline").all("text", cls="us")) > 0) == timing,
              f"{case}: the µs axis is {'missing' if timing else 'shown in a mode without times'}")
    counters = p.get("counters")
    if isinstance(counters, dict):
        ct = root.first("table", cls="counters")
        check(ct is not None and len(ct.all("tr")) == max(1, len(counters)), f"{case}: counters table rows")
    # layout, from the probe
    check(float(probe.get("svg_text_w", "0")) > 0, f"{case}: SVG text has no width (no fonts?)")
    if any(e["n"] for e in exp):
        check(int(probe.get("dis_w", "0")) > 600, f"{case}: the disassembly is {probe.get('dis_w')} px wide")
        check(float(probe.get("seg_w", "0")) > 0 or not any(e["present"] for e in exp),
              f"{case}: no stall segment has a width")
    if series:
        check(int(probe.get("occ_w", "0")) > 600, f"{case}: the occupancy chart is {probe.get('occ_w')} px wide")
    if "click_target" in probe:
        check(probe.get("click_flash") == "1", f"{case}: clicking the first hot spot did not highlight its line")
        check(probe.get("click_in_view") == "1", f"{case}: clicking the first hot spot did not bring its line into view")


def main():
    writer, data, outdir, case = sys.argv[1:5]
    chromium = find_chromium()
    if not chromium:
        why = ("XS12_CHROMIUM=%s is not an executable" % os.environ["XS12_CHROMIUM"] if "XS12_CHROMIUM" in os.environ
               else "chromium is not installed (Debian package chromium; scripts/bootstrap installs it)")
        if os.environ.get("CI") == "1":
            print(f"check_report: no browser: {why}; under CI=1 that is a failure, not a skip")
            return 1
        print(f"check_report: no browser: {why}: skipped")
        return SKIP
    os.makedirs(outdir, exist_ok=True)
    page = os.path.abspath(os.path.join(outdir, "report-%s.html" % case))
    t0 = time.monotonic()
    if case.startswith("live"):
        # the page as `xs12 run --profile FILE.html` writes it, end to end:
        # WRITER is then xs12 and DATA_DIR the kernel: lds_stream (-O2) for
        # "live", lds_banks (-O2, wave32) at stride 32 for "live-banks": every
        # lane of a pass in one bank, 31 conflict clocks per read and pass
        args = (["--groups", "104", "--block", "256", "--arg", "out:o.bin:128K"] if case == "live" else
                ["--groups", "1", "--block", "32", "--arg", "out:o.bin:128", "--arg", "u32:32", "--arg", "u32:64"])
        subprocess.run([os.path.abspath(writer), "run", os.path.abspath(data)] + args + ["--profile", page],
                       check=True, timeout=120, cwd=outdir, stdout=subprocess.DEVNULL)
        with open(page, encoding="utf-8") as f:
            p = json.loads(f.read().split('id="xs12-profile">', 1)[1].split("</script>", 1)[0])
        k0 = p["kernels"][0]
        check(k0["top_stall"] == "lgkmcnt", f"{case}: the kernel's top stall is not lgkmcnt")
        if case == "live":
            check(k0["lds_bank_conflict_cycles"] == 0, f"{case}: lds_stream has LDS bank conflicts")
        else:
            reads = [x for x in k0["instructions"] if x["text"].startswith("ds_read")]
            check(reads and all(x.get("lds_bank_conflict_cycles", 0) == 31 * x["issues"] for x in reads),
                  f"{case}: not every ds_read has 31 conflict clocks an issue")
            check(k0["lds_bank_conflict_cycles"] == p["counters"]["lds_bank_conflict_cycles"] == 64 * 31,
                  f"{case}: the kernel's conflict clocks are not the counters' 64 x 31")
    else:
        if case == "big":
            src = os.path.join(outdir, "report-big.json")
            with open(src, "w") as f:
                json.dump(big_profile(), f)
        else:
            src = os.path.join(data, case + ".json")
        with open(src, encoding="utf-8") as f:
            raw = f.read()
        p = json.loads(raw)
        subprocess.run([writer, src, page], check=True, timeout=60)
    t_write = time.monotonic() - t0
    with open(page, encoding="utf-8") as f:
        written = f.read()
    # the writer's escaping: the page's own two script elements are the only ones closed
    check(written.count("</script>") == 2, f"{case}: the page has {written.count('</script>')} </script>, not 2")
    body = written.split('id="xs12-profile">', 1)[1].split("</script>", 1)[0]
    check(json.loads(body) == p, f"{case}: the embedded JSON does not decode to the profile")
    check(not any(c in body for c in "<>&\u2028\u2029"), f"{case}: an unescaped < > & U+2028 U+2029 in the embedded JSON")
    probed = page[:-5] + ".probe.html"
    with open(probed, "w", encoding="utf-8") as f:
        f.write(written + PROBE)

    with tempfile.TemporaryDirectory(prefix="xs12-report-", ignore_cleanup_errors=True) as scratch:
        dom, err, t_dump = run_browser(chromium, scratch, "dump", ["--enable-logging=stderr", "--log-level=0",
                                                                   "--dump-dom"], "file://" + probed)
        shot = os.path.abspath(os.path.join(outdir, "report-%s.png" % case))
        if os.path.exists(shot):
            os.unlink(shot)
        _, _, t_shot = run_browser(chromium, scratch, "shot", ["--log-level=3", "--screenshot=" + shot],
                                   "file://" + page)
    print(f"{case}: {len(p.get('kernels', []) and p['kernels'][0].get('instructions', []))} instructions, "
          f"page {len(written)} bytes; write {t_write:.2f} s, dump {t_dump:.2f} s, screenshot {t_shot:.2f} s")
    if not check(dom.strip() != "", f"{case}: chromium gave an empty DOM (stderr: {err[-500:]})"):
        return 1
    for line in err.splitlines():
        if "Uncaught" in line or ":CONSOLE" in line and "error" in line.lower():
            check(False, f"{case}: a JavaScript error: {line.strip()}")
    root = parse(dom)
    ok = root.first(id="xs12-ok")
    if ok is not None:
        print(f"{case}: the page rendered in {ok.attrs.get('data-ms')} ms")
    pre = root.first("pre", id="probe")
    probe = dict(l.split("=", 1) for l in pre.text().splitlines() if "=" in l) if pre else {}
    check("probe_error" not in probe, f"{case}: the probe failed: {probe.get('probe_error')}")
    print(f"{case}: probe {probe}")

    if case == "badformat":
        errel = root.first(id="xs12-error")
        check(root.first(id="xs12-ok") is None, f"{case}: #xs12-ok although the format is wrong")
        check(errel is not None and '"format"' in errel.text() and "xs12-profile-1" in errel.text(),
              f"{case}: no error naming \"format\": {errel.text() if errel else None}")
    else:
        check_dom(case, p, root, probe)
    if case == "script":
        # strings holding markup are text on the page, never elements
        check(root.first("img") is None and root.first("u") is None, f"{case}: markup from a JSON string became an element")
        name = p["kernels"][0]["name"]
        check(root.first("section", cls="kernel").first("h2").text().startswith(name),
              f"{case}: the kernel's name is not shown as its exact text")
        srow = root.first("tr", cls="src")
        check(srow is not None and p["kernels"][0]["instructions"][0]["source"]["text"] in srow.text(),
              f"{case}: the source line's text is not shown exactly")

    with open(shot, "rb") as f:
        png = f.read()
    px = png_pixels(png)
    if check(px is not None, f"{case}: the screenshot is not a PNG"):
        w, h, colours = px
        check((w, h) == (WIDTH, HEIGHT), f"{case}: the screenshot is {w}x{h}, not {WIDTH}x{HEIGHT}")
        if colours is not None:
            check(len(colours) > 20, f"{case}: the screenshot has {len(colours)} colours: nothing drawn?")
            # the kernel's stall bar is near the top: its reasons' colours must be painted
            for k in p.get("kernels", [])[:1]:
                for r, v in (k.get("stalls") or {}).items():
                    if r in REASON_COLOR and v > 0.05 * max(1, k.get("wave_cycles", 0)):
                        check(REASON_COLOR[r] in colours, f"{case}: the screenshot lacks {r}'s colour")
    if failures:
        print(f"{case}: {len(failures)} checks failed")
        return 1
    print(f"{case}: ok")
    return 0


sys.exit(main())
