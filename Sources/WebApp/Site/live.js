// Live: the camera (getUserMedia), each frame sent to the server and shown back with every
// face drawn in its style, faces followed from frame to frame by the server's tracker. One
// frame is on its way at a time (`Live.lanes`): frames the camera makes meanwhile are never
// queued, only the newest is sent next, so a slow machine shows fewer frames, never older ones.
// Tap a face, then a style, to give that face another.
import { $, el, toast } from './dom.js';

const token = document.querySelector('meta[name="sketchease-token"]').content;

export class Live {
  /** Frames in flight at once, each in a lane of its own (the server follows them in order and
   * draws up to two side by side: LiveSession.framesInFlight). Two pay only where the server
   * has cores to spare: on two cores the two frames share them (over loopback 13.5 frames/s
   * against 14.3 with one, round trip 90 ms against 56: docs/performance.md). */
  static lanes = 1;

  constructor(app) {
    this.app = app;
    this.running = false;
    this.stream = null;
    // crypto.randomUUID needs a secure context (not a --host address over plain http).
    this.session = crypto.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
    this.faces = [];
    this.guidance = [];
    this.selected = null;
    this.shown = [];
    this.stats = { sent: 0, shown: 0, held: 0, dropped: 0, late: 0, latencies: [] };
    this.cameraNumber = 0;
    this.grab = document.createElement('canvas');
    $('live-button').addEventListener('click', () => this.open());
    $('live-close').addEventListener('click', () => this.close());
    $('live-switch').addEventListener('click', () => this.switchCamera());
    $('live-still').addEventListener('click', () => this.takePicture());
    $('live-record').addEventListener('click', () => (this.recorder ? this.stopRecording() : this.record()));
    $('live-boxes').addEventListener('click', (e) => {
      const face = e.target.closest('.live-face');
      if (!face && this.picking) { this.pickKey(e); return; }
      this.select(face ? Number(face.dataset.id) : null);
    });
    $('live-green').addEventListener('click', () => this.toggleGreenScreen());
    $('live-behind').addEventListener('change', () => { if (this.keyAt) this.sendGreenScreen(this.keyAt); });
    if (!navigator.mediaDevices?.getUserMedia) {
      $('live-button').disabled = true;
      $('live-button').title = 'The camera needs the page opened at localhost or 127.0.0.1 (or https)';
    }
    app.live = this;
    window.addEventListener('pagehide', () => this.finishOnLeaving());
    new ResizeObserver(() => { if (this.running) this.layout(); }).observe(document.querySelector('.live-stage'));
  }

  /** The served photos and clips, to put one behind a green screen (a clip plays, looping). */
  setPhotos(photos) {
    const chosen = $('live-behind').value;
    $('live-behind').replaceChildren(el('option', { value: '' }, 'white'),
      ...photos.map((p) => el('option', { value: p.id }, p.kind === 'clip' ? `${p.name} (clip)` : p.name)));
    if (photos.some((p) => p.id === chosen)) $('live-behind').value = chosen;
  }

  /** Green screen on: the next tap on the picture picks the key colour. Off: as filmed again. */
  async toggleGreenScreen() {
    if (this.keyAt || this.picking) {
      this.picking = false;
      this.keyAt = null;
      $('live-green').setAttribute('aria-pressed', 'false');
      $('live-hint').textContent = 'Tap a face to choose its style.';
      await this.post('/api/live/green', { session: this.session, pick: null, photo: null });
      return;
    }
    this.picking = true;
    $('live-green').setAttribute('aria-pressed', 'true');
    $('live-hint').textContent = 'Tap the green (the colour to key out) behind you.';
  }

  pickKey(event) {
    const rect = $('live-boxes').getBoundingClientRect();
    const canvas = $('live-canvas');
    const at = [(event.clientX - rect.left) * (canvas.width / rect.width), (event.clientY - rect.top) * (canvas.height / rect.height)];
    this.picking = false;
    this.keyAt = at;
    this.sendGreenScreen(at);
  }

  async sendGreenScreen(at) {
    const photo = $('live-behind').value || null;
    if (await this.post('/api/live/green', { session: this.session, pick: at, photo })) {
      this.app.greenScreen = { pick: at, photo };
      $('live-hint').textContent = `Keying the colour at ${Math.round(at[0])}, ${Math.round(at[1])}; Green screen again to stop.`;
    }
  }

  async post(path, body) {
    const response = await fetch(path, {
      method: 'POST', credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-SketchEase-Token': token }, body: JSON.stringify(body),
    });
    if (response.ok) return response.json();
    let message = `${response.status}`;
    try { message = (await response.json()).error || message; } catch { /* not JSON */ }
    toast(message, { error: true });
    return null;
  }

  setFilters(filters) {
    const choices = [{ id: null, label: 'as filmed' }, ...filters.map((f) => ({ id: f.id, label: f.id }))];
    $('live-styles').replaceChildren(...choices.map((c) => el('button', {
      type: 'button', class: 'live-style', dataset: { filter: c.id ?? '' }, 'aria-pressed': 'false',
      onclick: () => this.choose(c.id),
    }, c.label)));
  }

  async open() {
    if (this.running) return;
    $('live').hidden = false;
    document.body.classList.add('live-mode');
    $('live-stats').textContent = 'Starting the camera…';
    try {
      this.stream = await this.camera();
    } catch (error) {
      const why = error.name === 'NotAllowedError' ? 'the camera was not allowed' : error.name === 'NotFoundError' ? 'no camera was found' : error.message || error.name;
      toast(`Cannot start Live: ${why}.`, { error: true });
      this.close();
      return;
    }
    const video = $('live-video');
    video.srcObject = this.stream;
    await video.play();
    const cameras = (await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === 'videoinput');
    $('live-switch').hidden = cameras.length < 2;
    this.running = true;
    this.loop();
  }

  /** The camera: the one chosen with Switch camera, else the default (the front one on a phone). */
  camera() {
    const video = { width: { ideal: 640 }, height: { ideal: 480 } };
    if (this.deviceId) video.deviceId = { exact: this.deviceId };
    else video.facingMode = 'user';
    return navigator.mediaDevices.getUserMedia({ video, audio: false });
  }

  /** Front / back: the next camera there is. */
  async switchCamera() {
    const cameras = (await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === 'videoinput');
    if (cameras.length < 2) return;
    const current = this.stream?.getVideoTracks()[0]?.getSettings().deviceId;
    const index = cameras.findIndex((c) => c.deviceId === current);
    this.deviceId = cameras[(index + 1) % cameras.length].deviceId;
    try {
      const stream = await this.camera();
      this.stream?.getTracks().forEach((t) => t.stop());
      this.stream = stream;
      // The server follows this camera's faces afresh.
      this.cameraNumber += 1;
      $('live-video').srcObject = stream;
      await $('live-video').play();
    } catch (error) {
      toast(`Cannot switch camera: ${error.message || error.name}`, { error: true });
    }
  }

  async close() {
    if (this.recorder) await this.stopRecording();
    this.running = false;
    this.stream?.getTracks().forEach((t) => t.stop());
    this.stream = null;
    $('live-video').srcObject = null;
    $('live').hidden = true;
    document.body.classList.remove('live-mode');
  }

  /** `Live.lanes` lanes, each sending the newest camera frame, waiting for its answer and
   * showing it (unless another lane showed a newer one), again while running. */
  async loop() {
    this.newestShown = -1;
    this.halted = false;
    this.started = performance.now();
    await Promise.all(Array.from({ length: Live.lanes }, () => this.lane()));
    if (this.running) this.close();
  }

  /** Ends both lanes after an error (said once). */
  halt(message) {
    if (!this.halted && this.running) toast(`Live stopped: ${message}`, { error: true });
    this.halted = true;
  }

  async lane() {
    const video = $('live-video');
    const context = this.grab.getContext('2d', { willReadFrequently: true });
    while (this.running && !this.halted) {
      if (!video.videoWidth) { await new Promise((r) => setTimeout(r, 30)); continue; }
      const width = Math.min(640, video.videoWidth);
      const height = Math.round((video.videoHeight * width) / video.videoWidth);
      // Sized only when the camera's size changes: setting a canvas' size clears and
      // reallocates it, on every frame a cost of its own.
      if (this.grab.width !== width || this.grab.height !== height) {
        this.grab.width = width;
        this.grab.height = height;
      }
      context.drawImage(video, 0, 0, width, height);
      const pixels = context.getImageData(0, 0, width, height).data;
      const sentAt = performance.now();
      const query = new URLSearchParams({
        session: this.session, w: width, h: height, t: ((sentAt - this.started) / 1000).toFixed(3), c: this.cameraNumber,
      });
      let response;
      try {
        response = await fetch(`/api/live/frame?${query}`, {
          method: 'POST', credentials: 'same-origin',
          headers: { 'Content-Type': 'application/octet-stream', 'X-SketchEase-Token': token }, body: pixels,
        });
      } catch (error) {
        this.halt(error.message);
        break;
      }
      this.stats.sent += 1;
      if (response.status === 429) {
        this.stats.dropped += 1;
        // The other lane's frames are ahead: wait for a camera frame of its own.
        await new Promise((r) => setTimeout(r, 15));
        continue;
      }
      if (!response.ok && response.status !== 204) {
        let message = `${response.status}`;
        try { message = (await response.json()).error || message; } catch { /* not JSON */ }
        this.halt(message);
        break;
      }
      if (response.status === 204) { this.stats.held += 1; continue; }
      const frame = Number(response.headers.get('X-SketchEase-Frame'));
      const bitmap = await createImageBitmap(await response.blob());
      // The other lane's newer frame came back first: this one is not shown after it.
      if (frame < this.newestShown) { bitmap.close?.(); this.stats.late += 1; continue; }
      if (!this.running) { bitmap.close?.(); break; }
      this.newestShown = frame;
      this.faces = JSON.parse(response.headers.get('X-SketchEase-Faces') || '[]');
      this.guidance = JSON.parse(response.headers.get('X-SketchEase-Guidance') || '[]');
      this.renderGuidance();
      this.draw(bitmap, width, height);
      const now = performance.now();
      this.stats.latencies.push(Math.round(now - sentAt));
      if (this.stats.latencies.length > 300) this.stats.latencies.shift();
      this.stats.shown += 1;
      this.shown.push(now);
      while (this.shown.length && now - this.shown[0] > 2000) this.shown.shift();
      this.renderStats();
    }
  }

  /** "move closer", "light is uneven", "face cut off", "hold still": what the face report says
   * about the faces now, each said once (with the face numbers it is about). */
  renderGuidance() {
    const said = new Map();
    for (const g of this.guidance) said.set(g.say, [...(said.get(g.say) ?? []), g.face]);
    $('live-guidance').replaceChildren(...[...said].map(([say, faces]) => el('li', {
      title: this.guidance.filter((g) => g.say === say).map((g) => `face ${g.face}: ${g.detail}`).join('\n'),
    }, this.faces.length > 1 ? `${say} (${facesText(faces)})` : say)));
  }

  /** Take picture: the styled frame shown now, and its face report, saved in the output folder. */
  async takePicture() {
    if (!this.running) return;
    try {
      const response = await fetch('/api/live/still', {
        method: 'POST', credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json', 'X-SketchEase-Token': token },
        body: JSON.stringify({ session: this.session }),
      });
      const answer = await response.json();
      if (!response.ok) throw new Error(answer.error || `${response.status}`);
      this.app.still = answer;
      const link = $('live-download');
      link.href = `/api/live/download?name=${encodeURIComponent(answer.name)}`;
      link.download = answer.name;
      link.hidden = false;
      toast(`Saved ${answer.name} and its face report`);
    } catch (error) {
      toast(`Picture not saved: ${error.message}`, { error: true });
    }
  }

  // MARK: - Recording

  /** Records the styled frames as shown, with the microphone's sound (without it, with a
   * word, when there is none or it is not allowed). The recording goes to the server in
   * pieces as it is made, so closing the page (or stopping the server) still leaves an MP4. */
  async record() {
    if (!this.running || this.recorder) return;
    const video = $('live-canvas').captureStream(15);
    try {
      this.microphone = await navigator.mediaDevices.getUserMedia({ audio: true, video: false });
    } catch (error) {
      this.microphone = null;
      toast(`Recording without sound: ${error.name === 'NotAllowedError' ? 'the microphone was not allowed' : 'no microphone'}.`);
    }
    const stream = new MediaStream([...video.getVideoTracks(), ...(this.microphone?.getAudioTracks() ?? [])]);
    const type = ['video/webm;codecs=vp8,opus', 'video/webm', 'video/mp4'].find((t) => MediaRecorder.isTypeSupported(t));
    this.recordingId = crypto.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
    let piece = 0;
    this.pieces = Promise.resolve(true);
    this.recorder = new MediaRecorder(stream, type ? { mimeType: type } : {});
    this.recorder.ondataavailable = (e) => {
      if (!e.data.size) return;
      const n = piece++;
      const id = this.recordingId;
      // One piece at a time, in order.
      this.pieces = this.pieces.then(async (ok) => {
        if (!ok) return false;
        const response = await fetch(`/api/live/record/piece?recording=${encodeURIComponent(id)}&piece=${n}`, {
          method: 'POST', credentials: 'same-origin',
          headers: { 'Content-Type': 'application/octet-stream', 'X-SketchEase-Token': token }, body: e.data,
        }).catch(() => null);
        if (!response?.ok) { toast('The recording could not be sent to the server', { error: true }); return false; }
        return true;
      });
    };
    this.recorded = new Promise((resolve) => { this.recorder.onstop = resolve; });
    this.recorder.start(500);
    $('live-record').setAttribute('aria-pressed', 'true');
    $('live-record').querySelector('span').textContent = 'Stop';
    $('live-download').hidden = true;
  }

  /** Stops recording; the server makes the pieces into OUT/live-<time>.mp4. */
  async stopRecording() {
    const recorder = this.recorder;
    if (!recorder) return null;
    recorder.stop();
    await this.recorded;
    this.recorder = null;
    this.microphone?.getTracks().forEach((t) => t.stop());
    this.microphone = null;
    $('live-record').setAttribute('aria-pressed', 'false');
    $('live-record').querySelector('span').textContent = 'Saving…';
    $('live-record').disabled = true;
    try {
      await this.pieces;
      const response = await fetch('/api/live/record/finish', {
        method: 'POST', credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json', 'X-SketchEase-Token': token },
        body: JSON.stringify({ recording: this.recordingId }),
      });
      const answer = await response.json();
      if (!response.ok) throw new Error(answer.error || `${response.status}`);
      this.app.recording = answer;
      const link = $('live-download');
      link.href = `/api/live/download?name=${encodeURIComponent(answer.name)}`;
      link.download = answer.name;
      link.hidden = false;
      toast(`Recorded ${answer.name} (${answer.duration?.toFixed(1) ?? '?'} s) in the output folder`);
      return answer;
    } catch (error) {
      toast(`Recording not saved: ${error.message}`, { error: true });
      return null;
    } finally {
      this.recordingId = null;
      $('live-record').disabled = false;
      $('live-record').querySelector('span').textContent = 'Record';
    }
  }

  /** The page is going away while recording: what the recorder holds is sent as a last piece
   * (where the page lives long enough), and the server is told to finish once the pieces on
   * their way have come. */
  finishOnLeaving() {
    if (!this.recorder || !this.recordingId) return;
    if (this.recorder.state === 'recording') this.recorder.stop();
    fetch('/api/live/record/finish', {
      method: 'POST', credentials: 'same-origin', keepalive: true,
      headers: { 'Content-Type': 'application/json', 'X-SketchEase-Token': token },
      body: JSON.stringify({ recording: this.recordingId, leaving: true }),
    });
  }

  /** Frames shown per second over the last two seconds. */
  get fps() {
    if (this.shown.length < 2) return 0;
    return (this.shown.length - 1) / ((this.shown[this.shown.length - 1] - this.shown[0]) / 1000);
  }

  renderStats() {
    const last = this.stats.latencies[this.stats.latencies.length - 1];
    const n = this.faces.length;
    $('live-stats').textContent = `${this.fps.toFixed(1)} fps · ${last ?? '–'} ms camera to screen · ${n} face${n === 1 ? '' : 's'}`
      + (this.stats.dropped ? ` · ${this.stats.dropped} dropped` : '');
  }

  draw(bitmap, width, height) {
    const canvas = $('live-canvas');
    if (canvas.width !== width || canvas.height !== height) { canvas.width = width; canvas.height = height; this.layout(); }
    canvas.getContext('2d').drawImage(bitmap, 0, 0, width, height);
    bitmap.close?.();
    // The boxes are moved, not made again, so a face stays tappable while frames arrive.
    const boxes = $('live-boxes');
    const old = new Map([...boxes.querySelectorAll('.live-face')].map((b) => [Number(b.dataset.id), b]));
    boxes.replaceChildren(...this.faces.filter((f) => f.id > 0).map((f) => {
      const node = old.get(f.id) ?? el('button', { type: 'button', class: 'live-face', dataset: { id: f.id } }, el('span', { class: 'tag' }));
      node.classList.toggle('selected', f.id === this.selected);
      // Near the right edge the tag runs leftwards, so that it is not cut off.
      node.classList.toggle('right', (f.box[0] + f.box[2]) / width > 0.85);
      node.setAttribute('aria-label', `Face ${f.id}, ${f.style || 'as filmed'}`);
      Object.assign(node.style, {
        left: `${(f.box[0] / width) * 100}%`, top: `${(f.box[1] / height) * 100}%`,
        width: `${(f.box[2] / width) * 100}%`, height: `${(f.box[3] / height) * 100}%`,
      });
      node.querySelector('.tag').replaceChildren(String(f.id), ...(f.style ? [el('small', {}, f.style)] : []));
      return node;
    }));
  }

  /** Fits the picture (and the boxes over it) to the space there is, keeping its proportions. */
  layout() {
    const canvas = $('live-canvas');
    const stage = document.querySelector('.live-stage');
    const style = getComputedStyle(stage);
    const width = stage.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const height = stage.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
    const scale = Math.min(width / canvas.width, height / canvas.height);
    const frame = document.querySelector('.live-frame');
    frame.style.width = `${Math.max(1, Math.floor(canvas.width * scale))}px`;
    frame.style.height = `${Math.max(1, Math.floor(canvas.height * scale))}px`;
  }

  select(id) {
    this.selected = id;
    const face = this.faces.find((f) => f.id === id);
    $('live-hint').textContent = id === null ? 'Tap a face to choose its style.' : `Face ${id}: choose a style.`;
    for (const b of $('live-styles').querySelectorAll('.live-style')) {
      b.setAttribute('aria-pressed', face && (b.dataset.filter || null) === (face.style ?? null) ? 'true' : 'false');
    }
    $('live-styles').hidden = id === null;
    for (const b of $('live-boxes').querySelectorAll('.live-face')) b.classList.toggle('selected', Number(b.dataset.id) === id);
  }

  async choose(filter) {
    if (this.selected === null) return;
    const response = await fetch('/api/live/style', {
      method: 'POST', credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-SketchEase-Token': token },
      body: JSON.stringify({ session: this.session, track: this.selected, style: filter ? { filter } : null }),
    });
    if (!response.ok) { toast((await response.json()).error || 'could not set the style', { error: true }); return; }
    const state = await response.json();
    this.faces = this.faces.map((f) => state.faces.find((g) => g.id === f.id) ?? f);
    this.select(this.selected);
  }
}

/** "face 3", "faces 1, 3", "a new face". */
function facesText(ids) {
  const known = [...new Set(ids.filter((id) => id > 0))].sort((a, b) => a - b);
  if (!known.length) return 'a new face';
  return `${known.length === 1 ? 'face' : 'faces'} ${known.join(', ')}`;
}
