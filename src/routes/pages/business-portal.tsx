import { Hono } from 'hono';
import { Island } from '../../components/Island.tsx';
import { submitBusinessApplication } from '../../domain/accounts/business.ts';
import { DomainError } from '../../domain/errors.ts';
import { businessFormPost, businessFormValues, emptyBusinessForm, type BusinessFormValues } from '../../shared/schemas/business.ts';
import { SUBMIT_FAILED_TITLE, submittedToast } from '../../shared/schemas/business.ts';
import { ApplicationReceived } from '../../shared/ui/ApplicationReceived.tsx';
import type { AppContext, AppEnv } from '../../http/context.ts';
import { setFlash } from '../../http/flash.ts';
import { renderPage } from '../../http/render.tsx';
import { formBody } from '../../http/request.ts';

const meta = {
  title: 'Business Portal',
  description: 'Laguna Beach businesses: apply to partner with the Competitive Shopping Association.',
  path: '/business-portal',
};

function showForm<E extends AppEnv>(c: AppContext<E>, values: BusinessFormValues, failure?: DomainError) {
  return renderPage(
    c,
    meta,
    <Island name="BusinessApplicationForm" mode="idle" props={{ values, errors: failure ? (failure.fields ?? { _: failure.message }) : {} }} />,
    failure ? { status: 400, toast: { title: SUBMIT_FAILED_TITLE, description: failure.message, variant: 'destructive' } } : {},
  );
}

/** Spec section 2: the partner application for Laguna Beach businesses, with or without JavaScript. */
export const businessPages = new Hono<AppEnv>()
  .get('/business-portal', (c) => {
    if (c.req.query('submitted') === '1') {
      return renderPage(c, { ...meta, title: 'Application Received', path: '/business-portal?submitted=1', noindex: true }, <ApplicationReceived />);
    }
    return showForm(c, emptyBusinessForm);
  })
  .post(
    '/business-portal',
    formBody(businessFormPost, (c, error) => showForm(c, emptyBusinessForm, error)),
    (c) => {
      const values = businessFormValues(c.req.valid('form'));
      try {
        submitBusinessApplication({ db: c.env.deps.db, clock: c.env.deps.clock }, values, c.get('user')?.id ?? null);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        return showForm(c, values, error);
      }
      setFlash(c, submittedToast);
      return c.redirect('/business-portal?submitted=1', 303);
    },
  );
