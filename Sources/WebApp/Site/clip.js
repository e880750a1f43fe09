// A clip in the browser: its tracks (each face followed through the clip, at its clearest, as
// the prompt's contact sheet shows them), a player drawing the clip's frames with the styled
// faces (scrubber, play/pause), per-track styles, moves and resizes on a frame, undo/redo, and
// the export with its progress and cancel. The server's `ClipEditingSession` decides
// everything, as at `sketchease edit clip.mp4`; this page shows it and sends the edits.
import * as api from './api.js';
import { $, el, toast } from './dom.js';

export class ClipEditor {
  constructor(app, { stage, panel, strip, busy, setButton }) {
    this.app = app;
    this.stage = stage;
    this.panel = panel;
    this.strip = strip;
    this.busy = busy;
    this.setButton = setButton;
    this.state = null;
    /** Every frame's boxes (`/api/clip/boxes`), fetched again only when the state's key changes. */
    this.boxes = [];
    this.boxesKey = null;
    this.frame = 0;
    this.playing = false;
    this.loading = false;
    this.wanted = null;
    this.shownFrames = [];
    this.trial = null;
    this.trialRunning = false;
    $('play').addEventListener('click', () => (this.playing ? this.pause() : this.play()));
    $('scrub').addEventListener('input', (e) => { this.pause(); this.seek(Number(e.target.value)); });
    $('export-cancel').addEventListener('click', () => this.cancelExport());
    $('export-close').addEventListener('click', () => $('export-dialog').close());
  }

  get active() { return this.app.mode === 'clip' && !!this.state; }

  // MARK: - Opening

  async open(id) {
    if (this.state?.clip === id && this.app.mode === 'clip') return;
    this.pause();
    this.strip.highlight(id);
    this.busy(true, 'Following the faces through the clip…');
    let polling = true;
    const poll = async () => {
      while (polling) {
        await new Promise((r) => setTimeout(r, 400));
        if (!polling) break;
        try {
          const p = await api.get('/api/clip/progress', { clip: id });
          if (polling && p.frames) this.busy(true, `Following the faces… frame ${p.frames}${p.expected ? ` of ${p.expected}` : ''}`);
        } catch { /* the open request says what went wrong */ }
      }
    };
    poll();
    try {
      const state = await api.post('/api/clip/open', { clip: id });
      this.app.mode = 'clip';
      this.app.state = null;
      this.app.selected = [];
      this.panel.forgetSamples();
      this.state = state;
      this.app.clip = state;
      this.boxesKey = null;
      await this.loadBoxes();
      document.body.classList.add('clip-mode');
      $('player').hidden = false;
      $('tracks-card').hidden = false;
      $('scrub').max = Math.max(0, state.frameCount - 1);
      history.replaceState(null, '', `#clip=${encodeURIComponent(id)}`);
      if (state.resumed) toast(`Resumed your edits from ${state.session}`);
      this.frame = 0;
      this.render();
      await this.seek(0);
    } catch (error) {
      toast(error.message, { error: true, seconds: 12 });
      this.strip.highlight(this.app.mode === 'clip' ? this.state?.clip ?? null : this.app.state?.photo ?? null);
    } finally {
      polling = false;
      this.busy(false);
    }
  }

  /** Leaves the clip (a photo was opened). */
  close() {
    this.pause();
    this.state = null;
    this.boxes = [];
    this.boxesKey = null;
    this.app.clip = null;
    document.body.classList.remove('clip-mode');
    $('player').hidden = true;
    $('tracks-card').hidden = true;
  }

  // MARK: - Showing

  /** A state from the server: tracks, panel, buttons, boxes on the frame shown (fetched anew
   * only when they changed: a style does not move a box). */
  show(state) {
    this.state = state;
    this.app.clip = state;
    const ids = new Set(state.tracks.map((t) => t.id));
    this.app.selected = this.app.selected.filter((id) => ids.has(id));
    this.render();
    if (state.boxesKey !== this.boxesKey) this.loadBoxes().then(() => this.renderBoxes(), () => {});
  }

  /** Every frame's boxes as the server has them now. */
  async loadBoxes() {
    const clip = this.state.clip;
    const answer = await api.get('/api/clip/boxes', { clip });
    if (this.state?.clip !== clip) return;
    this.boxes = answer.boxes;
    this.boxesKey = answer.key;
  }

  render() {
    this.renderBoxes();
    this.renderTracks();
    this.renderPanel();
    this.renderBar();
  }

  /** What the stage shows for frame `this.frame`: the tracks' boxes there. */
  frameState() {
    const s = this.state;
    const byId = new Map(s.tracks.map((t) => [t.id, t]));
    const faces = (this.boxes[this.frame] || []).filter((b) => byId.has(b[0])).map(([id, x, y, w, h]) => {
      const t = byId.get(id);
      return { id, box: [x, y, w, h], style: t.style, label: t.label, warnings: [] };
    });
    return { photo: `clip:${s.clip}`, name: s.name, width: s.width, height: s.height, faces };
  }

  renderBoxes() { this.stage.show(this.frameState(), this.app.selected); }

  /** The tracks' sheet: a tile per track, its picture reloaded only when its style or box changed. */
  renderTracks() {
    const s = this.state;
    const list = $('tracks');
    const old = new Map([...list.querySelectorAll('.track')].map((b) => [Number(b.dataset.id), b.closest('li')]));
    list.replaceChildren(...s.tracks.map((t) => {
      const key = JSON.stringify([s.clip, t.style, t.box]);
      let item = old.get(t.id);
      if (!item) {
        item = el('li', {}, el('button', {
          type: 'button', class: 'track', dataset: { id: t.id },
          onclick: (e) => this.selectTrack(t.id, e.shiftKey || e.ctrlKey || e.metaKey, true),
        }, el('img', { alt: '', draggable: 'false' }), el('span', { class: 'number' }, String(t.id)), el('span', { class: 'label' })));
      }
      const button = item.querySelector('.track');
      button.setAttribute('aria-pressed', this.app.selected.includes(t.id) ? 'true' : 'false');
      button.setAttribute('aria-label', `Track ${t.id}, ${t.label || 'no style'}`);
      button.title = `Track ${t.id}: frames ${t.first ?? '?'}–${t.last ?? '?'}${t.label ? ` · ${t.label}` : ''}`;
      button.querySelector('.label').textContent = t.label || 'as filmed';
      button.classList.toggle('styled', !!t.style);
      const img = button.querySelector('img');
      if (img.dataset.key !== key) {
        img.dataset.key = key;
        img.src = api.url('/api/clip/track', { clip: s.clip, track: t.id, side: 200, rev: s.revision });
      }
      return item;
    }));
  }

  tracks() { return this.state.tracks.filter((t) => this.app.selected.includes(t.id)); }

  renderPanel() {
    const s = this.state;
    const faces = this.tracks().map((t) => ({ ...t, warnings: [] }));
    this.panel.show({ ...s, kind: 'clip', photo: s.clip }, faces);
    const heading = $('face-heading');
    if (faces.length) heading.textContent = faces.length === 1 ? `Track ${faces[0].id}` : `Tracks ${faces.map((f) => f.id).join(', ')}`;
    $('delete-face').textContent = 'Remove track';
  }

  renderBar() {
    const s = this.state;
    const title = $('title');
    title.replaceChildren();
    const name = el('strong', {}, s.name);
    title.append(name, ` · ${s.width}×${s.height} · ${formatTime(s.duration)} · ${s.tracks.length} track${s.tracks.length === 1 ? '' : 's'}`);
    if (s.exported) title.append(el('span', { class: 'pill ok' }, 'exported'));
    if (s.message) title.append(` · ${s.message}`);
    this.setButton('undo', s.canUndo, s.undo ? `Undo: ${s.undo} (Ctrl+Z)` : 'Nothing to undo');
    this.setButton('redo', s.canRedo, s.redo ? `Redo: ${s.redo} (Ctrl+Shift+Z)` : 'Nothing to redo');
    this.setButton('compare', false, 'Before / after is for photos');
    this.setButton('export', true, `Export ${s.output} (Ctrl+S)`);
    this.setButton('add-face', true, 'Add a box on this frame, followed through the clip');
    this.setButton('redetect', false, 'A clip’s faces are followed once');
    $('threshold').disabled = true;
    // Share: the exported clip, where the browser can share video files (phones).
    $('share').hidden = !(s.exported && navigator.canShare && navigator.canShare({ files: [new File([''], 'x.mp4', { type: 'video/mp4' })] }));
  }

  // MARK: - The player

  /** Shows frame `n` with its styled faces; while a picture is on its way, only the latest
   * frame asked for is fetched next. `started` times the scrub, as photo previews are timed. */
  async seek(n, started = performance.now(), kind = 'scrub') {
    if (!this.state) return;
    n = Math.max(0, Math.min(this.state.frameCount - 1, Math.round(n)));
    this.frame = n;
    $('scrub').value = n;
    this.renderTime();
    this.renderBoxes();
    this.wanted = { n, started, kind };
    if (this.loading) return;
    this.loading = true;
    try {
      while (this.wanted) {
        const { n: frame, started: t0, kind: k } = this.wanted;
        this.wanted = null;
        const clip = this.state.clip;
        const blob = await api.getBlob('/api/clip/frame', { clip, frame, rev: this.state.revision });
        if (this.state?.clip !== clip) return;
        await this.stage.showPicture(URL.createObjectURL(blob));
        this.app.previewShown = this.state.revision;
        this.app.shownFrame = frame;
        this.record(k, t0);
        this.countShown();
      }
    } catch (error) {
      toast(`Frame failed: ${error.message}`, { error: true });
    } finally {
      this.loading = false;
    }
  }

  record(kind, started) {
    this.app.timings.push({ kind, ms: Math.round(performance.now() - started) });
  }

  countShown() {
    const now = performance.now();
    this.shownFrames.push(now);
    while (this.shownFrames.length && now - this.shownFrames[0] > 2000) this.shownFrames.shift();
  }

  renderTime() {
    const s = this.state;
    const t = s.times[this.frame] ?? 0;
    let text = `${formatTime(t)} / ${formatTime(s.duration)} · frame ${this.frame + 1} of ${s.frameCount}`;
    if (this.playing && this.shownFrames.length > 1) {
      const span = (this.shownFrames[this.shownFrames.length - 1] - this.shownFrames[0]) / 1000;
      if (span > 0) text += ` · ${((this.shownFrames.length - 1) / span).toFixed(1)} fps shown`;
    }
    $('clip-time').textContent = text;
  }

  /** Plays from the frame shown: each picture asked for is the frame due at that moment, so
   * the clip keeps its pace and frames the server cannot draw in time are skipped. */
  async play() {
    if (!this.state || this.playing) return;
    if (this.frame >= this.state.frameCount - 1) this.frame = 0;
    this.playing = true;
    this.shownFrames = [];
    $('play').setAttribute('aria-pressed', 'true');
    $('play').querySelector('span').textContent = 'Pause';
    const startTime = this.state.times[this.frame] ?? 0;
    const startClock = performance.now();
    let ended = false;
    while (this.playing && this.state) {
      const due = startTime + (performance.now() - startClock) / 1000;
      const n = this.frameAt(due);
      if (n === null) { ended = true; break; }
      await this.seek(n, performance.now(), 'play');
      await new Promise((r) => requestAnimationFrame(r));
    }
    this.pause();
    // Played to the end: it stops on the last frame, even when frames were skipped to keep pace.
    if (ended && this.frame !== this.state.frameCount - 1) await this.seek(this.state.frameCount - 1, performance.now(), 'play');
  }

  pause() {
    this.playing = false;
    $('play').setAttribute('aria-pressed', 'false');
    const label = $('play').querySelector('span');
    if (label) label.textContent = 'Play';
  }

  /** The frame shown at `t` seconds; null past the end. */
  frameAt(t) {
    const times = this.state.times;
    if (t >= this.state.duration) return null;
    let lo = 0, hi = times.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (times[mid] <= t) lo = mid; else hi = mid - 1;
    }
    return lo;
  }

  // MARK: - Selecting and editing

  selectTrack(id, additive = false, jump = false) {
    if (!this.state) return;
    const sel = this.app.selected;
    if (id === null) this.app.selected = [];
    else if (additive) this.app.selected = sel.includes(id) ? sel.filter((x) => x !== id) : [...sel, id];
    else this.app.selected = [id];
    const track = this.state.tracks.find((t) => t.id === id);
    this.render();
    // From the tracks' sheet: to a frame that shows it (where its picture comes from).
    if (jump && track && !(this.boxes[this.frame] || []).some((b) => b[0] === id) && track.frame !== null) this.seek(track.frame);
  }

  async edit(change, started = performance.now()) {
    if (!this.state) return;
    try {
      const state = await api.post('/api/clip/edit', { clip: this.state.clip, edit: change });
      this.strip.markEdited(state.clip);
      this.show(state);
      await this.seek(this.frame, started, 'change');
    } catch (error) {
      toast(error.message, { error: true });
      this.render();
    }
  }

  /** A box moved on this frame: the whole track moves by as much. */
  move(id, dx, dy) { this.edit({ kind: 'move', face: id, dx, dy }); }

  /** A box resized on this frame to `width`×`height`: the whole track is resized in proportion. */
  resize(id, width, height) {
    const track = this.state.tracks.find((t) => t.id === id);
    const here = (this.boxes[this.frame] || []).find((b) => b[0] === id);
    if (!track || !here) return;
    this.edit({ kind: 'resize', face: id, width: track.box[2] * (width / here[3]), height: track.box[3] * (height / here[4]) });
  }

  async addBox(box) {
    if (!this.state) return;
    this.busy(true, 'Following the new box through the clip…');
    try {
      const before = new Set(this.state.tracks.map((t) => t.id));
      const state = await api.post('/api/clip/add', { clip: this.state.clip, frame: this.frame, box });
      this.app.selected = state.tracks.filter((t) => !before.has(t.id)).map((t) => t.id);
      this.show(state);
      await this.seek(this.frame, performance.now(), 'change');
    } catch (error) {
      toast(error.message, { error: true });
    } finally {
      this.busy(false);
    }
  }

  chooseStyle(filter) {
    const tracks = this.tracks();
    if (!tracks.length) return;
    const shared = this.panel.sharedStyle(tracks);
    const style = shared && shared.filter === filter ? shared : { filter };
    this.edit({ kind: 'style', faces: this.app.selected, style });
  }

  setStyle(style) {
    if (this.app.selected.length) this.edit({ kind: 'style', faces: this.app.selected, style });
  }

  /** A slider being moved: the frame with the style tried out, one request at a time. */
  tryStyle(style) {
    if (!this.app.selected.length) return;
    this.trial = { faces: [...this.app.selected], style, started: performance.now() };
    if (!this.trialRunning) this.runTrials();
  }

  async runTrials() {
    this.trialRunning = true;
    while (this.trial) {
      const { faces, style, started } = this.trial;
      this.trial = null;
      try {
        const blob = await api.postForImage('/api/clip/frame', { clip: this.state.clip, frame: this.frame, faces, style });
        await this.stage.showPicture(URL.createObjectURL(blob));
        this.record('slider', started);
      } catch (error) {
        toast(error.message, { error: true });
      }
    }
    this.trialRunning = false;
  }

  applyToAll() {
    const style = this.tracks().find((t) => t.style)?.style ?? this.app.library.defaultStyle;
    this.edit({ kind: 'style', faces: this.state.tracks.map((t) => t.id), style });
  }

  clearStyle() { this.edit({ kind: 'unstyle', faces: this.app.selected }); }

  removeTracks() {
    if (!this.app.selected.length) return;
    const faces = [...this.app.selected];
    this.app.selected = [];
    this.edit({ kind: 'delete', faces });
  }

  async undo() { await this.simple('/api/clip/undo'); }
  async redo() { await this.simple('/api/clip/redo'); }

  async simple(path) {
    if (!this.state) return;
    const started = performance.now();
    try {
      this.show(await api.post(path, { clip: this.state.clip }));
      await this.seek(this.frame, started, 'change');
    } catch (error) {
      toast(error.message, { error: true });
    }
  }

  // MARK: - Export

  /** Writes OUT/<name>.mp4 as `video` does, showing frames, fps and time left; Cancel stops it
   * and nothing is written. Downloads it when done. */
  async export() {
    if (!this.state) return;
    this.pause();
    const clip = this.state.clip;
    const dialog = $('export-dialog');
    $('export-title').textContent = `Exporting ${this.state.output.split('/').pop()}`;
    $('export-bar').removeAttribute('value');
    $('export-text').textContent = 'Starting…';
    $('export-cancel').hidden = false;
    $('export-cancel').disabled = false;
    $('export-close').hidden = true;
    $('export-download').hidden = true;
    if (!dialog.open) dialog.showModal();
    try {
      await api.post('/api/clip/export', { clip });
    } catch (error) {
      $('export-text').textContent = error.message;
      $('export-cancel').hidden = true;
      $('export-close').hidden = false;
      return;
    }
    for (;;) {
      await new Promise((r) => setTimeout(r, 250));
      let p;
      try { p = await api.get('/api/clip/export', { clip }); } catch (error) { $('export-text').textContent = error.message; break; }
      this.app.exportProgress = p;
      if (p.expected) { $('export-bar').max = p.expected; $('export-bar').value = Math.min(p.frames, p.expected); }
      if (p.status === 'running') {
        const left = p.remaining !== null && p.remaining !== undefined ? ` · ${Math.ceil(p.remaining)} s left` : '';
        $('export-text').textContent = `Frame ${p.frames}${p.expected ? ` of ${p.expected}` : ''} · ${p.fps.toFixed(1)} fps${left}`;
        continue;
      }
      $('export-cancel').hidden = true;
      $('export-close').hidden = false;
      if (p.status === 'done') {
        $('export-bar').value = $('export-bar').max;
        $('export-text').textContent = `Wrote ${p.output}: ${p.frames} frames in ${p.seconds.toFixed(1)} s (${p.fps.toFixed(1)} fps).`;
        const link = $('export-download');
        link.href = api.url('/api/clip/download', { clip });
        link.download = p.output.split('/').pop();
        link.hidden = false;
        link.click();
        try { this.show(await api.post('/api/clip/open', { clip })); } catch { /* the state stays */ }
      } else if (p.status === 'cancelled') {
        $('export-text').textContent = 'Cancelled: nothing was written.';
      } else {
        $('export-text').textContent = `Export failed: ${p.error}`;
      }
      break;
    }
  }

  /** Hands the exported clip to the system's share sheet. */
  async share() {
    if (!this.state?.exported) return;
    try {
      const blob = await api.getBlob('/api/clip/download', { clip: this.state.clip });
      const file = new File([blob], this.state.output.split('/').pop(), { type: 'video/mp4' });
      await navigator.share({ files: [file], title: this.state.name });
    } catch (error) {
      if (error.name !== 'AbortError') toast(`Could not share: ${error.message}`, { error: true });
    }
  }

  async cancelExport() {
    if (!this.state) return;
    $('export-cancel').disabled = true;
    $('export-text').textContent = 'Cancelling…';
    try { await api.post('/api/clip/cancel', { clip: this.state.clip }); } catch (error) { toast(error.message, { error: true }); }
  }
}

/** 75.3 → "1:15.3" */
export function formatTime(seconds) {
  const s = Math.max(0, seconds);
  const m = Math.floor(s / 60);
  const rest = (s - m * 60).toFixed(1).padStart(4, '0');
  return `${m}:${rest}`;
}
