import { formatDateTime } from '../../../components/format.ts';
import type { BusinessApplicationView } from '../../../domain/accounts/business.ts';
import { businessTypeLabels } from '../../../shared/schemas/business.ts';

function Detail({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="m-0 mt-0.5 break-words text-sm text-ink">{children}</dd>
    </div>
  );
}

const linkClass = 'font-semibold text-sea-dark underline-offset-2 hover:underline';

function ApplicationCard({ application: a }: { application: BusinessApplicationView }) {
  const instagram = a.instagramHandle?.replace(/^@/, '');
  // Stored with its scheme; anything else is not linked.
  const website = a.website && /^https?:\/\//i.test(a.website) ? a.website : null;
  return (
    <li className="rounded-xl border border-slate-200 p-4 sm:p-5">
      <article aria-labelledby={`application-${a.id}`}>
        <div className="flex flex-col gap-1 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
          <div className="min-w-0">
            <h3 id={`application-${a.id}`} className="m-0 break-words text-lg font-bold text-ink">
              {a.businessName}
            </h3>
            <span className="mt-1 inline-block rounded-full bg-sea/10 px-2.5 py-0.5 text-xs font-bold text-sea-dark">{businessTypeLabels[a.businessType]}</span>
          </div>
          <p className="m-0 shrink-0 text-sm text-slate-600">
            <time dateTime={new Date(a.createdAt).toISOString()}>{formatDateTime(a.createdAt)}</time>
          </p>
        </div>
        <dl className="m-0 mt-4 grid gap-3 sm:grid-cols-2">
          <Detail label="Contact">{a.contactName}</Detail>
          <Detail label="Email">
            <a href={`mailto:${a.email}`} className={linkClass}>
              {a.email}
            </a>
          </Detail>
          <Detail label="Phone">
            <a href={`tel:${a.phone.replace(/[^0-9+]/g, '')}`} className={linkClass}>
              {a.phone}
            </a>
          </Detail>
          <Detail label="Address">{`${a.address}, ${a.city} ${a.zipCode}`}</Detail>
          {a.website && (
            <Detail label="Website">
              {website ? (
                <a href={website} target="_blank" rel="noopener noreferrer nofollow" className={linkClass}>
                  {website.replace(/^https?:\/\//i, '')}
                </a>
              ) : (
                a.website
              )}
            </Detail>
          )}
          {instagram && (
            <Detail label="Instagram">
              <a href={`https://www.instagram.com/${encodeURIComponent(instagram)}/`} target="_blank" rel="noopener noreferrer nofollow" className={linkClass}>
                {`@${instagram}`}
              </a>
            </Detail>
          )}
        </dl>
        <div className="mt-4">
          <p className="m-0 text-xs font-semibold uppercase tracking-wide text-slate-500">Description</p>
          <p className="m-0 mt-1 whitespace-pre-line break-words text-sm leading-relaxed text-slate-700">{a.description}</p>
        </div>
      </article>
    </li>
  );
}

/** The admin panel's Applications tab: business portal applications, newest first. */
/** The tab shows the latest applications only; older ones are in GET /api/business-applications. */
export const APPLICATIONS_SHOWN = 200;

export function ApplicationsTab({ applications }: { applications: BusinessApplicationView[] }) {
  return (
    <section aria-labelledby="applications-title" className="rounded-2xl border border-slate-200 bg-white p-4 sm:p-6">
      <div className="mb-4 flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="applications-title" className="m-0 text-lg font-bold">
          Business applications
        </h2>
        {applications.length > 0 && (
          <p className="m-0 text-sm text-slate-600">
            {applications.length === 1
              ? '1 application'
              : applications.length === APPLICATIONS_SHOWN
                ? `The latest ${APPLICATIONS_SHOWN} applications`
                : `${applications.length} applications`}
          </p>
        )}
      </div>
      {applications.length === 0 ? (
        <p className="m-0 py-8 text-center text-slate-600">No applications yet.</p>
      ) : (
        <ol className="m-0 grid list-none gap-3 p-0">
          {applications.map((application) => (
            <ApplicationCard key={application.id} application={application} />
          ))}
        </ol>
      )}
    </section>
  );
}
