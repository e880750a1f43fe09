// SketchEase in the browser: the photo, its faces and styles, undo, export. Everything is
// decided by the server's model; this page shows its state and sends the person's edits.
import * as api from './api.js';
import { $, toast } from './dom.js';
import { Stage } from './stage.js';
import { Panel } from './panel.js';
import { Strip } from './strip.js';
import { Camera } from './camera.js';
import { ClipEditor } from './clip.js';
import { Live } from './live.js';

const app = {
  /** 'photo' or 'clip': what the stage, panel and buttons work on. */
  mode: 'photo',
  /** The clip open (its state from the server), in clip mode. */
  clip: null,
  library: null,
  state: null,
  selected: [],
  /** Milliseconds from a change (slider moved, style picked) to its preview on screen. */
  timings: [],
  pending: 0,
  previewShown: 0,
  originalURL: null,
};
// For the browser tests and the curious: the state and the measured preview times.
window.sketchease = app;

// In clip mode the same stage, panel and buttons work on the clip's tracks (clip.js).
const inClip = () => app.mode === 'clip' && clips.active;

const stage = new Stage({
  select: (id, additive) => (inClip() ? clips.selectTrack(id, additive) : select(id, additive)),
  clear: () => (inClip() ? clips.selectTrack(null) : select(null)),
  move: (id, dx, dy) => (inClip() ? clips.move(id, dx, dy) : edit({ kind: 'move', face: id, dx, dy })),
  resize: (id, width, height) => (inClip() ? clips.resize(id, width, height) : edit({ kind: 'resize', face: id, width, height })),
  draw: (box) => (inClip() ? clips.addBox(box) : addBox(box)),
  split: (percent) => { stage.setSplit(percent); $('split').value = Math.round(percent); },
});

const panel = new Panel({
  choose: (filter) => (inClip() ? clips.chooseStyle(filter) : chooseStyle(filter)),
  tryParameters: (style) => (inClip() ? clips.tryStyle(style) : tryStyle(style)),
  setParameters: (style) => (inClip() ? clips.setStyle(style) : setStyle(style)),
  applyAll: () => (inClip() ? clips.applyToAll() : applyToAll()),
  clearStyle: () => (inClip() ? clips.clearStyle() : edit({ kind: 'unstyle', faces: app.selected })),
  deleteFaces: () => (inClip() ? clips.removeTracks() : deleteSelected()),
});

const strip = new Strip({ open: (id) => openEntry(id), upload: (files) => uploadFiles(files) });
const camera = new Camera({ captured: (file) => uploadFiles([file]), failed: (message) => toast(message, { error: true }) });
const live = new Live(app);
const clips = new ClipEditor(app, { stage, panel, strip, busy: (on, text) => busy(on, text), setButton: (id, on, title) => setButton(id, on, title) });

/** Opens a photo or a clip from the strip. */
function openEntry(id) {
  const entry = app.library?.photos.find((p) => p.id === id);
  if (entry?.kind === 'clip') clips.open(id);
  else openPhoto(id);
}

// MARK: - Opening photos

async function start() {
  try {
    app.library = await api.get('/api/library');
  } catch (error) {
    toast(`Cannot list the photos: ${error.message}`, { error: true, seconds: 30 });
    return;
  }
  panel.setFilters(app.library.filters);
  live.setFilters(app.library.filters);
  live.setPhotos(app.library.photos);
  if (app.library.live || location.hash === '#live') live.open();
  strip.show(app.library.photos);
  for (const problem of app.library.problems) toast(problem, { error: true });
  if (app.library.live || location.hash === '#live') return;
  const wanted = decodeURIComponent(location.hash.replace(/^#(photo|clip)=/, ''));
  const first = app.library.photos.find((p) => p.id === wanted) || app.library.photos.find((p) => p.kind !== 'clip') || app.library.photos[0];
  if (first) openEntry(first.id);
}

async function openPhoto(id) {
  if (app.mode === 'photo' && app.state?.photo === id) return;
  busy(true, 'Opening the photo and finding faces…');
  strip.highlight(id);
  try {
    const state = await api.post('/api/open', { photo: id, side: stage.displaySide });
    if (app.mode === 'clip') { clips.close(); app.mode = 'photo'; $('delete-face').textContent = 'Delete box'; }
    app.selected = [];
    app.originalURL = null;
    setComparing(false);
    panel.forgetSamples();
    show(state);
    history.replaceState(null, '', `#photo=${encodeURIComponent(id)}`);
    if (state.resumed) toast(`Resumed your edits from ${state.session}`);
  } catch (error) {
    toast(error.message, { error: true });
    strip.highlight(app.state?.photo ?? null);
  } finally {
    busy(false);
  }
}

// MARK: - Showing state

/** Shows a state from the server: boxes, panel, buttons, and its preview. `started` is when
 * the person made the change, to time how long it took to show. */
function show(state, started, drawPreview = true) {
  app.state = state;
  const ids = new Set(state.faces.map((f) => f.id));
  app.selected = app.selected.filter((id) => ids.has(id));
  stage.show(state, app.selected);
  renderPanel();
  renderBar();
  if (drawPreview) loadPreview(state, started);
}

function renderPanel() {
  const faces = app.state.faces.filter((f) => app.selected.includes(f.id));
  panel.show(app.state, faces);
  $('threshold').value = app.state.threshold;
  $('threshold-value').textContent = Number(app.state.threshold).toFixed(2);
}

function renderBar() {
  const s = app.state;
  const warned = s.faces.filter((f) => f.warnings.length).length;
  const faces = `${s.faces.length} face${s.faces.length === 1 ? '' : 's'}`;
  const title = $('title');
  title.replaceChildren();
  const name = document.createElement('strong');
  name.textContent = s.name;
  title.append(name, ` · ${s.width}×${s.height} · ${faces}`);
  if (warned) {
    const pill = document.createElement('span');
    pill.className = 'pill';
    pill.textContent = `${warned} with warnings`;
    title.append(pill);
  }
  if (s.exported) {
    const pill = document.createElement('span');
    pill.className = 'pill ok';
    pill.textContent = 'exported';
    title.append(pill);
  }
  if (s.message) title.append(` · ${s.message}`);
  setButton('undo', s.canUndo, s.undo ? `Undo: ${s.undo} (Ctrl+Z)` : 'Nothing to undo');
  setButton('redo', s.canRedo, s.redo ? `Redo: ${s.redo} (Ctrl+Shift+Z)` : 'Nothing to redo');
  setButton('compare', true, 'Before / after (B)');
  setButton('export', true, `Export ${s.output} (Ctrl+S)`);
  setButton('add-face', true, 'Add a box in the middle of the photo');
  setButton('redetect', true, 'Find the faces again at this threshold');
  $('threshold').disabled = false;
  $('draw-whole').disabled = false;
  $('draw-whole').checked = Boolean(s.background);
  $('draw-whole').title = s.background ? `The photo around the faces is drawn in ${s.background.filter}` : 'The photo around the faces is left as photographed';
  $('share').hidden = !(navigator.canShare && navigator.canShare({ files: [new File([''], 'x.png', { type: 'image/png' })] }));
}

function setButton(id, enabled, title) {
  const button = $(id);
  button.disabled = !enabled;
  button.title = title;
}

/** Loads the preview of `state` (skipped when a newer one has been asked for). */
async function loadPreview(state, started) {
  const ticket = ++app.pending;
  try {
    const blob = await api.getBlob('/api/preview', { photo: state.photo, rev: state.revision });
    if (ticket !== app.pending) return;
    await stage.showPicture(URL.createObjectURL(blob));
    if (ticket !== app.pending) return;
    app.previewShown = state.revision;
    if (started !== undefined) record('change', started);
  } catch (error) {
    if (ticket === app.pending) toast(`Preview failed: ${error.message}`, { error: true });
  }
}

function record(kind, started) {
  app.timings.push({ kind, ms: Math.round(performance.now() - started) });
}

// MARK: - Trying out: a change shown before it is recorded

let trial = null;
let trialRunning = false;

/** A slider being moved: its latest value is drawn, one request at a time; nothing is
 * recorded until it is let go. */
function tryStyle(style) {
  if (!app.selected.length) return;
  trial = { edit: { kind: 'style', faces: app.selected, style }, started: performance.now() };
  if (!trialRunning) runTrials();
}

async function runTrials() {
  trialRunning = true;
  while (trial) {
    const { edit, started } = trial;
    trial = null;
    await showTrial(edit, started, 'slider');
  }
  trialRunning = false;
}

/** Draws the photo with `change` applied on top of revision `app.state.revision` (on the
 * server, at display size); true once it is on screen. */
async function showTrial(change, started, kind) {
  const ticket = ++app.pending;
  try {
    const blob = await api.postForImage('/api/preview', { photo: app.state.photo, revision: app.state.revision, edit: change });
    if (ticket !== app.pending) return false;
    await stage.showPicture(URL.createObjectURL(blob));
    if (ticket !== app.pending) return false;
    record(kind, started);
    return true;
  } catch (error) {
    // A recorded edit that does not fit says so itself; a slider says it here.
    if (kind === 'slider') toast(error.message, { error: true });
    return false;
  }
}

// MARK: - Edits

/** Records an edit. Its picture is asked for at the same time as the edit itself, so it shows
 * after one round trip; the recorded state then takes over without drawing it again. */
async function edit(change, started = performance.now()) {
  if (!app.state) return;
  const shown = showTrial(change, started, 'change');
  try {
    const state = await api.post('/api/edit', { photo: app.state.photo, edit: change });
    strip.markEdited(state.photo);
    const ticket = app.pending;
    if (await shown && ticket === app.pending) {
      show(state, undefined, false);
      app.previewShown = state.revision;
    } else {
      show(state, started);
    }
  } catch (error) {
    toast(error.message, { error: true });
    show(app.state);
  }
}

function select(id, additive = false) {
  if (!app.state) return;
  if (id === null) app.selected = [];
  else if (additive) app.selected = app.selected.includes(id) ? app.selected.filter((x) => x !== id) : [...app.selected, id];
  else app.selected = [id];
  stage.show(app.state, app.selected);
  renderPanel();
  if (id !== null && app.selected.includes(id)) stage.faceElement(id)?.focus({ preventScroll: true });
}

function selectedFaces() { return app.state.faces.filter((f) => app.selected.includes(f.id)); }

/** A style chosen in the picker: the faces keep their parameters if they already had it. */
function chooseStyle(filter) {
  const faces = selectedFaces();
  if (!faces.length) return;
  const shared = panel.sharedStyle(faces);
  const style = shared && shared.filter === filter ? shared : { filter };
  edit({ kind: 'style', faces: app.selected, style });
}

function setStyle(style) {
  if (!app.selected.length) return;
  edit({ kind: 'style', faces: app.selected, style });
}

function applyToAll() {
  const faces = selectedFaces();
  const style = faces.find((f) => f.style)?.style ?? app.library.defaultStyle;
  edit({ kind: 'style', faces: app.state.faces.map((f) => f.id), style });
}

async function deleteSelected() {
  if (!app.selected.length) return;
  const faces = [...app.selected];
  app.selected = [];
  await edit({ kind: 'delete', faces });
}

async function addBox(box) {
  try {
    const state = await api.post('/api/add', { photo: app.state.photo, box });
    const added = state.faces.filter((f) => !app.state.faces.some((g) => g.id === f.id)).map((f) => f.id);
    app.selected = added;
    show(state);
  } catch (error) {
    toast(error.message, { error: true });
  }
}

async function simple(path, body = {}) {
  if (!app.state) return;
  try {
    show(await api.post(path, { photo: app.state.photo, ...body }), performance.now());
  } catch (error) {
    toast(error.message, { error: true });
  }
}

const undo = () => {
  if (inClip()) { if (app.clip.canUndo) clips.undo(); return; }
  if (app.state?.canUndo) simple('/api/undo');
};
const redo = () => {
  if (inClip()) { if (app.clip.canRedo) clips.redo(); return; }
  if (app.state?.canRedo) simple('/api/redo');
};

async function redetect() {
  busy(true, 'Finding faces…');
  await simple('/api/detect', { threshold: Number($('threshold').value) });
  busy(false);
}

// MARK: - Before / after, export, share

async function setComparing(on) {
  if (on && !app.state) return;
  $('compare').setAttribute('aria-pressed', on ? 'true' : 'false');
  $('compare-bar').hidden = !on;
  if (on && !app.originalURL) {
    const blob = await api.getBlob('/api/original', { photo: app.state.photo });
    app.originalURL = URL.createObjectURL(blob);
  }
  stage.setComparing(on, app.originalURL);
}

async function exportPhoto() {
  if (inClip()) { clips.export(); return null; }
  if (!app.state) return null;
  busy(true, 'Exporting at full size…');
  try {
    const state = await api.post('/api/export', { photo: app.state.photo });
    show(state);
    const link = document.createElement('a');
    link.href = api.url('/api/download', { photo: state.photo });
    link.download = state.output.split('/').pop();
    document.body.append(link);
    link.click();
    link.remove();
    toast(`Exported ${state.output}`);
    return state;
  } catch (error) {
    toast(error.message, { error: true });
    return null;
  } finally {
    busy(false);
  }
}

async function share() {
  if (inClip()) { clips.share(); return; }
  if (!app.state) return;
  const state = app.state.exported ? app.state : await exportPhoto();
  if (!state) return;
  try {
    const blob = await api.getBlob('/api/download', { photo: state.photo });
    // The export's own type (`--format`: PNG, JPEG or WebP), as the server answers it.
    const file = new File([blob], state.output.split('/').pop(), { type: blob.type || 'image/png' });
    await navigator.share({ files: [file], title: state.name });
  } catch (error) {
    if (error.name !== 'AbortError') toast(`Could not share: ${error.message}`, { error: true });
  }
}

// MARK: - Uploads

async function uploadFiles(files) {
  let last = null;
  for (const file of files) {
    busy(true, `Adding ${file.name}…`);
    try {
      const photo = await api.upload(file);
      last = photo;
    } catch (error) {
      toast(error.message, { error: true });
    }
  }
  busy(false);
  if (!last) return;
  try {
    app.library = await api.get('/api/library');
    strip.show(app.library.photos);
  } catch (error) {
    toast(error.message, { error: true });
  }
  openEntry(last.id);
}

// MARK: - Busy indicator, buttons and keys

function busy(on, text = '') {
  $('busy').hidden = !on;
  if (text) $('busy-text').textContent = text;
}

$('undo').addEventListener('click', undo);
$('redo').addEventListener('click', redo);
$('compare').addEventListener('click', () => setComparing($('compare').getAttribute('aria-pressed') !== 'true'));
$('split').addEventListener('input', (e) => stage.setSplit(Number(e.target.value)));
$('export').addEventListener('click', exportPhoto);
$('share').addEventListener('click', share);
$('redetect').addEventListener('click', redetect);
// The photo around the faces drawn in the style of the selected face (else the first styled
// face, else pencil), or left as photographed: an edit like any other.
$('draw-whole').addEventListener('change', (e) => {
  if (!app.state) return;
  const faces = app.state.faces;
  const chosen = faces.find((f) => app.selected.includes(f.id) && f.style) || faces.find((f) => f.style);
  edit({ kind: 'background', style: e.target.checked ? (chosen?.style || { filter: 'pencil' }) : null });
});
$('threshold').addEventListener('input', (e) => { $('threshold-value').textContent = Number(e.target.value).toFixed(2); });
$('add-face').addEventListener('click', () => {
  const { width, height } = inClip() ? app.clip : app.state;
  if (inClip()) {
    const side = Math.max(16, Math.round(Math.min(width, height) / 5));
    clips.addBox([Math.round((width - side) / 2), Math.round((height - side) / 2), side, side]);
    return;
  }
  const side = Math.max(16, Math.round(Math.min(width, height) / 5));
  addBox([Math.round((width - side) / 2), Math.round((height - side) / 2), side, side]);
});

/** Arrow keys nudge the selected boxes; a run of presses lands as one move. */
let nudge = null;
function nudgeBy(dx, dy) {
  const faces = selectedFaces();
  if (!faces.length) return;
  nudge ??= { dx: 0, dy: 0, faces };
  clearTimeout(nudge.timer);
  nudge.dx += dx; nudge.dy += dy;
  for (const f of nudge.faces) stage.placeBox(f.id, [f.box[0] + nudge.dx, f.box[1] + nudge.dy, f.box[2], f.box[3]]);
  nudge.timer = setTimeout(async () => {
    const { faces: moved, dx: mx, dy: my } = nudge;
    nudge = null;
    for (const f of moved) await edit({ kind: 'move', face: f.id, dx: mx, dy: my });
  }, 350);
}

function resizeSelected(factor) {
  for (const f of selectedFaces()) edit({ kind: 'resize', face: f.id, width: f.box[2] * factor, height: f.box[3] * factor });
}

document.addEventListener('keydown', (event) => {
  const mod = event.ctrlKey || event.metaKey;
  const key = event.key.toLowerCase();
  // Live covers the editor: its keys do nothing to the photo or clip under it.
  if (live.running || !$('live').hidden) { if (key === 'escape') live.close(); return; }
  if (mod && key === 'z') { event.preventDefault(); event.shiftKey ? redo() : undo(); return; }
  if (mod && key === 'y') { event.preventDefault(); redo(); return; }
  if (mod && key === 's') { event.preventDefault(); exportPhoto(); return; }
  const target = event.target;
  if (inClip()) { clipKeys(event, key, mod); return; }
  if (target.closest('input, select, textarea, dialog') || mod || event.altKey || !app.state) return;
  if (key === 'b') { setComparing($('compare').getAttribute('aria-pressed') !== 'true'); return; }
  if (key === 'escape') { if ($('compare').getAttribute('aria-pressed') === 'true') setComparing(false); else select(null); return; }
  if (/^[1-9]$/.test(key) && app.state.faces.some((f) => f.id === Number(key))) { select(Number(key), event.shiftKey); return; }
  if (!app.selected.length || target.closest('.styles')) return;
  const face = selectedFaces()[0];
  const step = Math.max(1, Math.round(Math.max(face.box[2], face.box[3]) * (event.shiftKey ? 0.1 : 0.02)));
  const moves = { arrowleft: [-step, 0], arrowright: [step, 0], arrowup: [0, -step], arrowdown: [0, step] };
  if (moves[key]) { event.preventDefault(); nudgeBy(...moves[key]); return; }
  if (key === '+' || key === '=') { event.preventDefault(); resizeSelected(1.1); return; }
  if (key === '-' || key === '_') { event.preventDefault(); resizeSelected(1 / 1.1); return; }
  if (key === 'delete' || key === 'backspace') { event.preventDefault(); deleteSelected(); }
});

/** Keys on a clip: Space plays or pauses, arrows step a frame (Shift: a second), 1–9 pick a
 * track, Delete removes the selected ones, Esc selects none. */
function clipKeys(event, key, mod) {
  const target = event.target;
  if (target.closest('select, textarea, dialog') || (target.closest('input') && target.id !== 'scrub') || mod || event.altKey) return;
  const s = app.clip;
  if (key === ' ' && !target.closest('button')) { event.preventDefault(); if (clips.playing) clips.pause(); else clips.play(); return; }
  if (key === 'escape') { clips.selectTrack(null); return; }
  if (/^[1-9]$/.test(key) && s.tracks.some((t) => t.id === Number(key))) { clips.selectTrack(Number(key), event.shiftKey, true); return; }
  if ((key === 'delete' || key === 'backspace') && app.selected.length) { event.preventDefault(); clips.removeTracks(); return; }
  if ((key === 'arrowleft' || key === 'arrowright') && target.id !== 'scrub') {
    event.preventDefault();
    clips.pause();
    const step = event.shiftKey ? Math.max(1, Math.round(s.frameRate)) : 1;
    clips.seek(clips.frame + (key === 'arrowright' ? step : -step));
  }
}

let resizeTimer = 0;
window.addEventListener('resize', () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(async () => {
    if (inClip()) { stage.layout(); return; }
    if (!app.state) return;
    stage.layout();
    try {
      const state = await api.post('/api/open', { photo: app.state.photo, side: stage.displaySide });
      if (state.revision !== app.state.revision) { app.originalURL = null; show(state); }
    } catch { /* the old preview stays */ }
  }, 300);
});

start();
