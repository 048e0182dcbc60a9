// The review page: draws what the server sends (GET state) and sends back each change (POST edge, undo, save,
// done). The server holds the state and solves; this file only shows it and passes on clicks and keys.
"use strict";

const SIDES = ["north", "east", "south", "west"];
const SVG = "http://www.w3.org/2000/svg";
let state = null;          // the server's last document
let selected = null;       // {tile: index, side} of the edge in focus
let solutionShown = 0;     // which solution's picture is shown
let chooserFor = null;     // the edge whose labels are offered
let busy = false;

const $ = (id) => document.getElementById(id);
const nameOf = (value) => state.labels.find((l) => l.value === value).name;
const percent = (p) => (p > 0 && p < 0.005 ? "<1%" : `${Math.round(100 * p)}%`);

async function call(method, path, body) {
  let response;
  try {
    response = await fetch(path, {method, headers: {"Content-Type": "application/json"},
                                  body: body === undefined ? undefined : JSON.stringify(body)});
  } catch (error) {
    throw new Error("photosolve no longer answers: it was stopped in the terminal, or Done was pressed");
  }
  const document_ = await response.json();
  if (!response.ok) throw new Error(document_.error || response.statusText);
  return document_;
}

async function act(method, path, body) {
  if (busy) return;
  busy = true;
  document.body.dataset.busy = "yes";  // for whoever drives the page (tests): wait until the answer is shown
  try {
    const answer = await call(method, path, body);
    if (answer.tiles) show(answer);
    return answer;
  } catch (error) {
    say(error.message, true);
  } finally {
    busy = false;
    document.body.dataset.busy = "";
  }
}

function say(text, error = false) {
  $("message").textContent = text;
  $("message").classList.toggle("error", error);
}

function el(tag, attributes = {}, parent = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function html(tag, attributes = {}, text = "") {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text) node.textContent = text;
  return node;
}

const centre = (corners) => corners.reduce(([x, y], [a, b]) => [x + a / 4, y + b / 4], [0, 0]);
const sideLength = (corners) => corners.reduce((sum, p, i) => {
  const q = corners[(i + 1) % 4];
  return sum + Math.hypot(p[0] - q[0], p[1] - q[1]) / 4;
}, 0);

function edgeClasses(edge) {
  return [edge.set_by_hand ? "by-hand" : "", edge.decisive ? "decisive" : "", edge.unsure ? "unsure" : ""]
    .filter(Boolean);
}

function drawPhoto() {
  const svg = $("photo");
  svg.replaceChildren();
  const photo = $("photo").dataset;
  el("image", {href: "photo.jpg", x: 0, y: 0, width: photo.width, height: photo.height}, svg);
  const places = state.outcome.places[solutionShown];
  state.tiles.forEach((tile, t) => {
    const corners = tile.corners, [cx, cy] = centre(corners), side = sideLength(corners);
    const group = el("g", {class: "tile", "data-tile": tile.number}, svg);
    for (let s = 0; s < 4; s++) {
      const a = corners[s], b = corners[(s + 1) % 4];
      const hit = el("polygon", {class: "hit", points: `${cx},${cy} ${a} ${b}`, "data-tile": tile.number,
                                 "data-side": s}, group);
      if (selected && selected.tile === t && selected.side === s) hit.classList.add("selected");
      hit.addEventListener("click", (event) => choose(t, s, event));
    }
    el("polygon", {class: "outline", points: corners.map(String).join(" "),
                   "stroke-width": Math.max(2, side / 90)}, group);
    const number = el("text", {class: "number", x: cx, y: cy - side * 0.05, "font-size": side / 5,
                               "stroke-width": side / 60}, group);
    number.textContent = tile.number;
    if (places) {  // where the tile goes, as the annotated photo says it: two short lines under its number
      const place = places[t], lines = [`row ${place.row}, col ${place.col}`, `turn ${90 * place.turns}°`];
      lines.forEach((line, i) => {
        el("text", {class: "place", x: cx, y: cy + side * (0.1 + 0.08 * i), "font-size": side / 14,
                    "stroke-width": side / 60}, group).textContent = line;
      });
    }
    tile.edges.forEach((edge, s) => drawLabel(group, tile, t, s, edge, [cx, cy], side));
  });
}

function drawLabel(group, tile, t, s, edge, [cx, cy], side) {
  const a = tile.corners[s], b = tile.corners[(s + 1) % 4];
  const mx = (a[0] + b[0]) / 2, my = (a[1] + b[1]) / 2;
  const x = mx + 0.2 * (cx - mx), y = my + 0.2 * (cy - my);  // near its edge, clear of the tile's number
  const size = Math.max(10, side / 11);
  const label = el("g", {class: ["label", ...edgeClasses(edge)].join(" "), "data-tile": tile.number,
                         "data-side": s}, group);
  if (selected && selected.tile === t && selected.side === s) label.classList.add("selected");
  const text = `${nameOf(edge.label)}${edge.unsure && !edge.set_by_hand ? " ?" : ""}`;
  const width = size * (0.62 * text.length + 0.8), height = size * 1.5;
  el("rect", {x: x - width / 2, y: y - height / 2, width, height, rx: size * 0.3,
              "stroke-width": size * 0.25}, label);
  el("text", {x, y, "font-size": size}, label).textContent = text;
  label.addEventListener("click", (event) => choose(t, s, event));
}

function drawVerdict() {
  const outcome = state.outcome, solved = outcome.count > 0;
  $("verdict").className = solved ? "solved" : "unsolved";
  $("verdict-text").textContent = (solved ? "✓ " : "✗ ") + outcome.text;
  const changed = state.checked ? `${state.checked} edge(s) checked by you, ${state.changed} of them changed. ` : "";
  const counted = outcome.count > 1 ? "Turns of the whole board are counted once. " : "";
  $("verdict-detail").textContent = changed + counted + (solved ? "The solved board, from the photo's tiles:"
                                                                : "Change the edges that were read wrong.");
  if (solutionShown >= Math.max(1, outcome.places.length)) solutionShown = 0;
  $("solution-nav").hidden = outcome.places.length < 2;
  $("solution-number").textContent = `solution ${solutionShown + 1} of ${outcome.count}`;
  const picture = $("solved");
  picture.hidden = !solved;
  if (solved) picture.src = `solved.png?n=${solutionShown}&v=${state.version}`;
  const suggestion = state.suggestion;
  $("suggestion").hidden = solved || suggestion.length === 0;
  $("suggestion").querySelector("h2").textContent =
    suggestion.length === 1 ? "A solution is one change away" : `A solution is ${suggestion.length} changes away`;
  $("suggested").replaceChildren(...suggestion.map((c) => html("li", {},
    `tile ${c.tile + 1}, ${SIDES[c.side]} edge: ${nameOf(state.tiles[c.tile].edges[c.side].label)} → ` +
    nameOf(c.label))));
}

function drawDoubts() {
  const list = $("doubts");
  list.replaceChildren();
  $("no-doubts").hidden = state.doubtful.length > 0;
  for (const {tile: t, side: s} of state.doubtful) {
    const edge = state.tiles[t].edges[s];
    const item = html("li", {class: edgeClasses(edge).join(" "), "data-tile": t + 1, "data-side": s});
    if (selected && selected.tile === t && selected.side === s) item.classList.add("selected");
    item.appendChild(html("img", {src: `half/${edge.label}.png`, alt: ""}));
    const words = html("div");
    words.appendChild(html("div", {class: "where"}, `tile ${t + 1}, ${SIDES[s]}: ${nameOf(edge.label)}`));
    const [best, other] = edge.choices;
    const rival = best[0] === edge.first ? other : best;
    words.appendChild(html("div", {class: "what"},
      `read ${nameOf(edge.first)} ${percent(edge.choices.find((c) => c[0] === edge.first)[1])}, ` +
      `or ${nameOf(rival[0])} ${percent(rival[1])}`));
    const tag = edge.set_by_hand ? "✓ checked by you" : edge.decisive ? "changes the solution" : "";
    if (tag) words.appendChild(html("div", {class: "tag"}, tag));
    item.appendChild(words);
    item.addEventListener("click", (event) => choose(t, s, event));
    list.appendChild(item);
  }
}

function show(document_) {
  state = document_;
  document.body.dataset.version = state.version;
  $("undo").disabled = !state.can_undo;
  $("save").disabled = state.save_targets.length === 0;
  $("save").title = state.save_targets.length ? `Write ${state.save_targets.join(" and ")} (S)`
    : "Nothing to save to: start photosolve with -o solved.png and/or --save-tiles read.tiles";
  $("source").textContent = state.source;
  drawPhoto();
  drawVerdict();
  drawDoubts();
  if (chooserFor) openChooser(chooserFor.tile, chooserFor.side);
}

function select(t, s) {
  selected = {tile: t, side: s};
  drawPhoto();
  drawDoubts();
}

function choose(t, s, event) {
  if (event) event.stopPropagation();
  select(t, s);
  openChooser(t, s, event);
}

function openChooser(t, s, event) {
  const edge = state.tiles[t].edges[s];
  chooserFor = {tile: t, side: s};
  $("chooser-title").textContent = `tile ${t + 1}, ${SIDES[s]} edge — read ${nameOf(edge.first)}`;
  const list = $("choices");
  list.replaceChildren();
  edge.choices.forEach(([value, chance], i) => {
    const item = html("li", {"data-label": value});
    if (value === edge.label) item.classList.add("current");
    item.appendChild(html("kbd", {}, i < 9 ? String(i + 1) : ""));
    item.appendChild(html("img", {src: `half/${value}.png`, alt: ""}));
    const words = html("div");
    words.appendChild(html("div", {class: "name"}, nameOf(value)));
    words.appendChild(html("div", {class: "chance"}, `read as this: ${percent(chance)}`));
    const bar = html("div", {class: "bar"});
    bar.style.width = `${Math.max(1, 100 * chance)}%`;
    words.appendChild(bar);
    item.appendChild(words);
    item.addEventListener("click", (e) => { e.stopPropagation(); setLabel(t, s, value); });
    list.appendChild(item);
  });
  const box = $("chooser");
  box.hidden = false;
  if (event && event.clientX !== undefined && event.clientX !== 0) place(box, event.clientX, event.clientY);
  else if (!event) return;  // redrawn after a change: it stays where it was
  else {
    const anchor = document.querySelector(`.label[data-tile="${t + 1}"][data-side="${s}"]`);
    const r = anchor.getBoundingClientRect();
    place(box, r.right, r.bottom);
  }
}

function place(box, x, y) {
  const width = box.offsetWidth, height = box.offsetHeight;
  box.style.left = `${Math.max(8, Math.min(x + 12, window.innerWidth - width - 8))}px`;
  box.style.top = `${Math.max(8, Math.min(y + 12, window.innerHeight - height - 8))}px`;
}

function closeChooser() {
  chooserFor = null;
  $("chooser").hidden = true;
}

async function setLabel(t, s, value) {
  closeChooser();
  const kept = state.tiles[t].edges[s].label === value;
  const answer = await act("POST", "edge", {tile: t + 1, side: s, label: value});
  if (answer) say(`tile ${t + 1}, ${SIDES[s]} edge ${kept ? "confirmed as" : "set to"} ${nameOf(value)}: ` +
                  state.outcome.text);
}

function step(by) {
  const order = state.doubtful;
  if (order.length === 0) return;
  let at = selected ? order.findIndex((d) => d.tile === selected.tile && d.side === selected.side) : -1;
  at = at < 0 ? (by > 0 ? 0 : order.length - 1) : (at + by + order.length) % order.length;
  closeChooser();
  select(order[at].tile, order[at].side);
}

async function save() {
  const answer = await act("POST", "save");
  if (answer) say(answer.said.join("\n"));
}

async function done() {
  const answer = await act("POST", "done");
  if (answer) $("finished").hidden = false;
}

async function applySuggestion() {
  if (!state.suggestion.length) return;
  const changes = state.suggestion.map((c) => ({tile: c.tile + 1, side: c.side, label: c.label}));
  const answer = await act("POST", "edge", {changes});
  if (answer) say(`${changes.length} suggested change(s) applied: ${state.outcome.text}`);
}

document.addEventListener("keydown", (event) => {
  if (!state || event.ctrlKey || event.metaKey || event.altKey) {
    if (state && (event.ctrlKey || event.metaKey) && event.key === "z") { event.preventDefault(); act("POST", "undo"); }
    return;
  }
  const key = event.key;
  if (key === "Enter" && event.target.tagName === "BUTTON") return;  // the button's own click
  if (chooserFor) {
    const edge = state.tiles[chooserFor.tile].edges[chooserFor.side];
    if (key === "Escape") closeChooser();
    else if (/^[1-9]$/.test(key) && Number(key) <= edge.choices.length) {
      setLabel(chooserFor.tile, chooserFor.side, edge.choices[Number(key) - 1][0]);
    } else if (key === "j" || key === "ArrowDown") step(1);
    else if (key === "k" || key === "ArrowUp") step(-1);
    else return;
  } else if (key === "j" || key === "ArrowDown") step(1);
  else if (key === "k" || key === "ArrowUp") step(-1);
  else if (key === "Enter" && selected) openChooser(selected.tile, selected.side, {});
  else if (key === "u") act("POST", "undo");
  else if (key === "s") save();
  else if (key === "a") applySuggestion();
  else if (key === "Escape") { selected = null; drawPhoto(); drawDoubts(); }
  else return;
  event.preventDefault();
});

document.addEventListener("click", (event) => {
  if (chooserFor && !$("chooser").contains(event.target)) closeChooser();
});

$("undo").addEventListener("click", () => act("POST", "undo"));
$("save").addEventListener("click", save);
$("done").addEventListener("click", done);
$("apply").addEventListener("click", applySuggestion);
$("previous").addEventListener("click", () => { solutionShown = Math.max(0, solutionShown - 1); show(state); });
$("next").addEventListener("click", () => {
  solutionShown = Math.min(state.outcome.places.length - 1, solutionShown + 1);
  show(state);
});

// The view is the tiles with a margin of half a tile, not the whole photo (a desk, a keyboard): the labels are
// read at the largest size the pane allows.
function frameTiles(width, height) {
  const xs = state.tiles.flatMap((t) => t.corners.map((p) => p[0]));
  const ys = state.tiles.flatMap((t) => t.corners.map((p) => p[1]));
  const margin = 0.5 * Math.max(...state.tiles.map((t) => sideLength(t.corners)));
  const left = Math.max(0, Math.min(...xs) - margin), top = Math.max(0, Math.min(...ys) - margin);
  const right = Math.min(width, Math.max(...xs) + margin), bottom = Math.min(height, Math.max(...ys) + margin);
  $("photo").setAttribute("viewBox", `${left} ${top} ${right - left} ${bottom - top}`);
}

// The photo's size sets the overlay's coordinates (the tiles' corners are in the page photo's pixels).
const photo = new Image();
photo.onload = async () => {
  $("photo").setAttribute("viewBox", `0 0 ${photo.naturalWidth} ${photo.naturalHeight}`);
  $("photo").dataset.width = photo.naturalWidth;
  $("photo").dataset.height = photo.naturalHeight;
  const first = await act("GET", "state");
  if (first) frameTiles(photo.naturalWidth, photo.naturalHeight);
  if (first && state.doubtful.length) select(state.doubtful[0].tile, state.doubtful[0].side);
  document.body.dataset.ready = "yes";
};
photo.src = "photo.jpg";
