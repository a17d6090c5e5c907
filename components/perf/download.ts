// Saves text the page already has as a file, without another round trip.
export function downloadText(filename: string, text: string, type = "text/plain") {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // The click has handed the blob to the browser's download by the next tick.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
