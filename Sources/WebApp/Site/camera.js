// "Take a picture": the computer's camera through getUserMedia, one frame captured as a JPEG
// and uploaded like any other photo.
import { $ } from './dom.js';

export class Camera {
  constructor(callbacks) {
    this.on = callbacks; // captured(file), failed(message)
    this.stream = null;
    this.dialog = $('camera-dialog');
    $('camera-button').addEventListener('click', () => this.open());
    $('camera-cancel').addEventListener('click', () => this.close());
    $('camera-snap').addEventListener('click', () => this.snap());
    this.dialog.addEventListener('close', () => this.stop());
    if (!navigator.mediaDevices?.getUserMedia) {
      $('camera-button').disabled = true;
      $('camera-button').title = 'The camera needs the page opened at localhost or 127.0.0.1 (or https)';
    }
  }

  async open() {
    $('camera-hint').textContent = 'Starting the camera…';
    $('camera-snap').disabled = true;
    this.dialog.showModal();
    try {
      this.stream = await navigator.mediaDevices.getUserMedia({
        video: { facingMode: 'user', width: { ideal: 1920 }, height: { ideal: 1080 } }, audio: false,
      });
      const video = $('camera-video');
      video.srcObject = this.stream;
      await video.play();
      $('camera-hint').textContent = 'Look at the camera, then take the picture.';
      $('camera-snap').disabled = false;
      $('camera-snap').focus();
    } catch (error) {
      this.close();
      const why = error.name === 'NotAllowedError' ? 'the browser was not allowed to use it'
        : error.name === 'NotFoundError' ? 'no camera was found' : error.message || error.name;
      this.on.failed(`Cannot take a picture: ${why}.`);
    }
  }

  async snap() {
    const video = $('camera-video');
    const canvas = document.createElement('canvas');
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    canvas.getContext('2d').drawImage(video, 0, 0);
    const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.92));
    this.close();
    const stamp = new Date().toISOString().slice(0, 19).replace('T', '-').replaceAll(':', '');
    this.on.captured(new File([blob], `camera-${stamp}.jpg`, { type: 'image/jpeg' }));
  }

  stop() {
    this.stream?.getTracks().forEach((track) => track.stop());
    this.stream = null;
    $('camera-video').srcObject = null;
  }

  close() {
    this.stop();
    if (this.dialog.open) this.dialog.close();
  }
}
