// Loaded only by pages that show an image from another site: a broken one is swapped for the
// default image of its product type (local images fall back on the server).
for (const img of document.querySelectorAll<HTMLImageElement>('img[data-fallback]')) {
  const swap = () => {
    const fallback = img.dataset.fallback;
    if (fallback && !img.src.endsWith(fallback)) img.src = fallback;
  };
  if (img.complete && img.naturalWidth === 0) swap();
  else img.addEventListener('error', swap, { once: true });
}
