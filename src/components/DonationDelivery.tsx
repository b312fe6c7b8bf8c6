/**
 * Where a donation went, on the order confirmation and the order page (issue 29): the charity
 * and its address instead of the buyer's delivery, and who gave it.
 */
export function DonationDelivery({
  order,
  headingId,
}: {
  order: { donation: { charity: string } | null; addressLines: string; customerName: string | null; status: string; deliveredAt: number | null };
  headingId: string;
}) {
  if (!order.donation) return null;
  const handedOver = order.deliveredAt !== null;
  return (
    <section aria-labelledby={headingId} data-donation="" className="rounded-2xl border border-sea/40 bg-sea/5 p-5 print:border-0 print:p-0">
      <h2 id={headingId} className="m-0 text-lg font-bold">
        {`Donation to ${order.donation.charity}`}
      </h2>
      <p className="m-0 mt-2 text-sm break-words">{order.addressLines}</p>
      {order.customerName && <p className="m-0 mt-2 text-sm break-words">{`Given by ${order.customerName}`}</p>}
      <p className="m-0 mt-2 text-sm text-slate-700">
        {handedOver
          ? `You donated it to charity: we handed it over to ${order.donation.charity}. Thank you for giving!`
          : `You donated it to charity: we hand it over to ${order.donation.charity} from our Laguna Beach store, and e-mail you when we have.`}
      </p>
    </section>
  );
}
