/** Hands a file to the browser to save under a name: the explorer's and audit trail's CSV exports, the close reports. */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = filename;
  anchor.click();
  // Released once the browser has started the download.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
