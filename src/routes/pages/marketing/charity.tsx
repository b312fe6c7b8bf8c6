import type { CharityPartner } from '../../../config.ts';

/** The shop's charity partner (issue 29), on the tutorial's Pay tab: who 'Donate this' and donated prizes go to. */
export function CharityPartnerCard({ charity }: { charity: CharityPartner | null }) {
  if (!charity) return null;
  return (
    <div data-charity-partner="" className="rounded-xl border border-sea/40 bg-sea/5 p-4 text-sm text-slate-700">
      <h3 className="m-0 text-base font-bold text-ink">{`Buy to donate: our charity partner, ${charity.name}`}</h3>
      {charity.about && <p className="m-0 mt-1">{charity.about}</p>}
      <p className="m-0 mt-1">{charity.address}</p>
      <p className="m-0 mt-2">
        {`Products marked Donate have a 'Donate this' button: you pay as for Pay Now, no address is asked, and we hand the product over to ${charity.name}. Game winners can donate their prize to them too.`}
      </p>
    </div>
  );
}
