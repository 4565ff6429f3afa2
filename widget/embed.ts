/** Tells an embedding page how tall we are, so its iframe can fit without a scrollbar. */
export function reportHeight() {
  if (window.parent !== window && "ResizeObserver" in window) {
    new ResizeObserver(() =>
      window.parent.postMessage(
        { type: "salon-widget:height", height: document.documentElement.scrollHeight },
        "*",
      ),
    ).observe(document.body);
  }
}
