// The page of `yume-cli replay --html` (package tracepage): the recording in
// asciinema-player, and under it the trace's timeline; an entry, clicked,
// seeks the player there and shows the screen of that moment with the rows
// the firing rule matched (.hit) and the rows where a missed rule's pattern
// got nearest (.near). The trace's lines are described in docs/trace.md.
"use strict";

const D = JSON.parse(document.getElementById("data").textContent);

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}
const secs = ms => (ms / 1000).toFixed(3) + "s";

// rowsText writes [27,28,29,31] as "27–29, 31".
function rowsText(rows) {
  const out = [];
  for (let i = 0; i < rows.length; i++) {
    let j = i;
    while (j + 1 < rows.length && rows[j + 1] === rows[j] + 1) j++;
    out.push(i === j ? String(rows[i]) : rows[i] + "–" + rows[j]);
    i = j;
  }
  return out.join(", ");
}

// keysText shows typed bytes: text as it is, keys by name in ‹›.
const KEYS = {
  "\r": "Enter", "\n": "LF", "\t": "Tab", "\x1b": "Esc", "\x7f": "Backspace",
  "\x03": "Ctrl-C", "\x04": "Ctrl-D", "\x0f": "Ctrl-O", "\x15": "Ctrl-U", "\x17": "Ctrl-W",
  "\x1b[A": "Up", "\x1b[B": "Down", "\x1b[C": "Right", "\x1b[D": "Left",
  "\x1bOA": "Up", "\x1bOB": "Down", "\x1bOC": "Right", "\x1bOD": "Left",
  "\x1b[Z": "Shift-Tab", "\x1b[200~": "paste{", "\x1b[201~": "}paste",
};
function keysText(s) {
  return s.replace(/\x1bP[^\x1b]*\x1b\\|\x1b\[[0-9;?>=]*[ -\/]*[@-~]|\x1bO.|[\x00-\x1f\x7f]/g,
    k => "‹" + (KEYS[k] || JSON.stringify(k).slice(1, -1)) + "›");
}

// Each trace line knows its time on the recording's clock (a live run's
// trace is shifted onto it) and the screen it was decided on: the last
// screen line written before it.
let screen = [], screenAt = -1;
const lines = D.trace.map((l, i) => {
  if (l.event === "screen") { screen = l.screen; screenAt = i; }
  return Object.assign({}, l, { i, t: l.t_ms + D.shift_ms, screen, screenAt });
});
const screens = lines.filter(l => l.event === "screen");

function screenAtTime(t) {
  let s = [];
  for (const l of screens) if (l.t <= t) s = l.screen;
  return s;
}

// oneDecision: rule line b goes on the decision of the rule lines group,
// written just before it, unless it tries a rule of the group again. A
// replay writes a decision's lines at one time; a live run's clock moves
// while it writes them.
function oneDecision(group, b) {
  const a = group[group.length - 1];
  return b.event === "rule" && b.settled === a.settled && !group.some(r => r.rule === b.rule) &&
    (D.live || b.t_ms === a.t_ms);
}

// The timeline: one entry per decision (the rules tried on one screen at
// one time), keys, state line, move, repeat, tool event.
const entries = [];
for (let i = 0; i < lines.length; i++) {
  const l = lines[i];
  if (l.event === "screen") continue;
  if (l.event !== "rule") {
    const kind = l.event === "keys" ? "keys" : "state";
    entries.push({ t: l.t, seq: i, kind, line: l, screen: l.screen });
    continue;
  }
  const group = [l];
  while (i + 1 < lines.length && oneDecision(group, lines[i + 1])) group.push(lines[++i]);
  const fired = group.some(r => r.fired);
  entries.push({ t: l.t, seq: l.i, kind: fired ? "fired" : "miss", line: l, group, screen: l.screen });
}
for (const tool of D.tools) {
  const seq = tool.after >= 0 ? tool.after - 0.5 : Infinity;
  entries.push({ t: tool.t_ms, seq, kind: "tool", tool, screen: screenAtTime(tool.t_ms) });
}
entries.sort((a, b) => a.t - b.t || a.seq - b.seq);

function label(e) {
  const l = e.line;
  switch (e.kind) {
    case "fired": {
      const f = e.group.filter(r => r.fired);
      return f.map(r => r.rule + (r.rows ? " · rows " + rowsText(r.rows) : "")).join("; ");
    }
    case "miss": {
      const unsettled = e.group.some(r => r.settled === false) ? " (screen not settled)" : "";
      return e.group.length === 1 ? e.group[0].rule + ": " + e.group[0].why : "no rule fired, " + e.group.length + " tried" + unsettled;
    }
    case "keys":
      return keysText(l.keys || "") + " · " + [l.rule, l.why].filter(Boolean).join(": ");
    case "tool": {
      const t = e.tool;
      if (t.kind === "tool_use") return "tool_use " + t.name + " " + JSON.stringify(t.input || {});
      return "tool_result" + (t.is_error ? " (error)" : "") + " " + (t.content || "");
    }
  }
  if (l.event === "repeat") {
    const of = l.of || {};
    return "×" + l.count + " more until " + secs(l.until_ms + D.shift_ms) + ": " + (of.rule ? of.rule + " " + (of.why || "") : of.detail || of.event);
  }
  return l.detail || "";
}

const KINDS = [
  ["fired", "rules that fired"], ["miss", "no rule fired"], ["keys", "keys"],
  ["state", "state, moves"], ["tool", "tool_use, tool_result"],
];
const SHOWN = { fired: "fired", miss: "miss", keys: "keys", tool: "tool" };

const list = document.getElementById("entries");
entries.forEach(e => {
  const li = el("li", "entry " + e.kind);
  li.tabIndex = 0;
  li.append(el("span", "t", secs(e.t)),
    el("span", "k", e.kind === "state" ? e.line.event : SHOWN[e.kind]),
    el("span", "what", label(e)));
  li.addEventListener("click", () => select(e, li));
  li.addEventListener("keydown", ev => { if (ev.key === "Enter") select(e, li); });
  e.li = li;
  list.append(li);
});

const filters = document.getElementById("filters");
for (const [kind, name] of KINDS) {
  const box = el("input");
  box.type = "checkbox";
  box.checked = true;
  box.addEventListener("change", () => list.classList.toggle("hide-" + kind, !box.checked));
  const lab = el("label", "f " + kind);
  lab.append(box, " " + name + " (" + entries.filter(e => e.kind === kind).length + ")");
  filters.append(lab);
}
const shifted = D.shift_ms ? " · the trace's times +" + D.shift_ms.toFixed(1) + " ms, onto the recording's clock (matched on the keys typed)" : "";
document.getElementById("about").textContent = D.about + " · " + D.trace.length +
  " trace lines" + shifted + " · click an entry to see its screen";

// The player, with a marker for each rule that fired and each tool event.
const markers = entries.filter(e => e.kind === "fired" || e.kind === "tool")
  .map(e => [e.t / 1000, label(e).slice(0, 80)]);
const player = AsciinemaPlayer.create({ data: D.cast }, document.getElementById("player"),
  { preload: true, fit: "width", markers });

// The rules as they stand on a decision's screen: each rule's last line
// from the screen's first decision up to this one.
function rulesAt(e) {
  const last = e.group[e.group.length - 1].i;
  const byRule = new Map();
  for (let i = e.line.screenAt + 1; i <= last; i++) {
    const l = lines[i];
    if (l.event === "rule") byRule.set(l.rule, l);
  }
  return [...byRule.values()];
}

// marks: screen row -> "hit" (a fired rule's match) or "near" (where a
// missed rule's pattern matched before its failing part).
function marksOf(rules) {
  const marks = new Map();
  for (const r of rules) {
    if (r.fired) (r.rows || []).forEach(n => marks.set(n, "hit"));
    else for (const n of (r.miss && r.miss.near) || []) if (!marks.has(n.row)) marks.set(n.row, "near");
  }
  return marks;
}

function screenBox(rows, marks) {
  const box = el("div", "screen");
  box.id = "screen";
  rows.forEach((text, n) => {
    const row = el("div", "row" + (marks.has(n) ? " " + marks.get(n) : ""));
    row.dataset.row = n;
    row.append(el("span", "n", String(n)), el("span", "text", text));
    box.append(row);
  });
  const off = [...marks.keys()].filter(n => n < 0 || n >= rows.length);
  if (off.length) box.append(el("p", "off", "rows " + rowsText(off.sort((a, b) => a - b)) + " are off this screen (negative: scrollback)"));
  return box;
}

function ruleItem(r, e) {
  const li = el("li", "rule " + (r.fired ? "fired" : "missed"));
  const head = el("div", "head");
  head.append(el("span", "name", r.rule), el("span", "src", r.source || ""),
    el("span", "why", r.fired ? "fired" + (r.rows ? " on rows " + rowsText(r.rows) : "") : r.why || ""));
  if (!e.group.includes(r)) head.append(el("span", "when", "as at " + secs(r.t)));
  li.append(head);
  if (r.groups) {
    for (const [k, v] of Object.entries(r.groups)) li.append(el("div", "group", k + " = " + JSON.stringify(v)));
  }
  const m = r.miss;
  if (m) {
    const part = el("div", "part");
    part.append("part " + m.index + " of " + m.parts + (m.group ? " (group " + m.group + ")" : "") + " found nothing: ",
      el("code", "", m.part));
    li.append(part);
    for (const n of m.near || []) {
      const near = el("div", "near");
      near.append("near row " + n.row + ": ", el("code", "", n.matched), " matched");
      li.append(near);
    }
  }
  return li;
}

const detail = document.getElementById("detail");
let selected = null;

function select(e, li) {
  if (selected) selected.classList.remove("selected");
  selected = li;
  li.classList.add("selected");
  player.seek(e.t / 1000).then(() => player.pause(), () => {});
  detail.replaceChildren(el("h2", "", secs(e.t) + " · " + (e.kind === "state" ? e.line.event : SHOWN[e.kind])),
    el("p", "what", label(e)));
  if (e.kind === "tool") {
    const t = e.tool;
    detail.append(el("pre", "tool", t.kind === "tool_use" ? JSON.stringify(t.input, null, 2) : t.content || ""));
  }
  const rules = e.group ? rulesAt(e) : [];
  let box = screenBox(e.screen || [], marksOf(rules));
  const ol = el("ol", "rules");
  for (const r of rules) {
    const item = ruleItem(r, e);
    // A rule clicked shows its own rows alone; clicked again, all of them.
    item.addEventListener("click", () => {
      const on = !item.classList.contains("focus");
      ol.querySelectorAll(".focus").forEach(x => x.classList.remove("focus"));
      item.classList.toggle("focus", on);
      const next = screenBox(e.screen || [], marksOf(on ? [r] : rules));
      box.replaceWith(next);
      box = next;
    });
    ol.append(item);
  }
  detail.append(el("p", "legend", e.group ? "The screen on which the rules were tried: green rows matched a rule that fired, amber rows are where a missed rule's pattern got before the part that found nothing." : "The screen at this moment (the last one the trace wrote)."), box);
  if (rules.length) detail.append(el("h3", "", "The rules on this screen"), ol);
}

// While it plays, the timeline marks the last entry passed.
let now = null;
setInterval(() => {
  const t = player.getCurrentTime();
  if (typeof t !== "number") return;
  let last = null;
  for (const e of entries) if (e.t / 1000 <= t) last = e; else break;
  if (last === now) return;
  if (now) now.li.classList.remove("now");
  if (last) last.li.classList.add("now");
  now = last;
}, 250);
