/** 'Print receipt': the browser's print dialog; the page's print styles leave the receipt alone on paper. */
export default function PrintButton({ label }: { label: string }) {
  return (
    <button
      type="button"
      onClick={() => window.print()}
      className="rounded-full border border-slate-300 bg-white px-4 py-2 text-sm font-bold text-ink cursor-pointer hover:bg-slate-50 print:hidden"
    >
      {label}
    </button>
  );
}
