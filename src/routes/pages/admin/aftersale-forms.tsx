import { Hono } from 'hono';
import type * as z from 'zod/mini';
import { shipOrder } from '../../../domain/orders/aftersale.ts';
import { refundOrder } from '../../../domain/orders/aftersale-refund.ts';
import { DomainError } from '../../../domain/errors.ts';
import { findOrderForAdmin } from '../../../domain/orders/admin-orders.ts';
import type { AppContext, AppEnv } from '../../../http/context.ts';
import { renderPage } from '../../../http/render.tsx';
import { formatDollars } from '../../../shared/money.ts';
import { formatCents } from '../../../shared/pricing.ts';
import { ConfirmStep } from './confirm-step.tsx';
import { setFlash } from '../../../http/flash.ts';
import { idFrom, pathId, validForm } from '../../../http/request.ts';
import { dollarsTextToCents, refundForm, shipBody } from '../../../shared/schemas/aftersale.ts';

type RefundForm = z.output<typeof refundForm>;

/**
 * The Orders tab's Ship and Refund forms (behind the admin gate of index.tsx), answered with a
 * toast back on the order. The refund form carries a key made when it was shown, so the same
 * form sent twice refunds once and two forms refund twice.
 */

const backTo = (id: number | string) => `/admin?tab=orders#order-${id}`;

/** 'Refund to card: order #N?' with the amount in dollars and the reason; the form's key carried over. */
function confirmRefund(c: AppContext<AppEnv>, id: number, form: RefundForm) {
  const order = findOrderForAdmin(c.env.deps.db, id);
  if (!order) {
    setFlash(c, { title: 'Not refunded', description: 'Order not found.', variant: 'destructive' });
    return c.redirect('/admin?tab=orders', 303);
  }
  const cents = dollarsTextToCents(form.amount);
  const amount = cents === undefined ? `everything not yet refunded (${formatDollars(order.total - order.refunded)})` : formatCents(cents);
  return renderPage(
    c,
    { title: 'Confirm the refund', path: '/admin', noindex: true },
    <ConfirmStep
      title={`Refund to card: order #${order.id}?`}
      action={`/admin/orders/${order.id}/refund`}
      fields={{ amount: form.amount, reason: form.reason, key: form.key }}
      backHref={backTo(order.id)}
      confirmLabel="Yes, Refund to card"
    >
      <p className="m-0">{`${order.customer.name}'s card is refunded ${amount}. This cannot be undone.`}</p>
      <p className="m-0">{`The reason they see: “${form.reason}”.`}</p>
    </ConfirmStep>,
    { backHref: backTo(order.id) },
  );
}

export const afterSaleForms = new Hono<AppEnv>()
  .post(
    '/admin/orders/:id{[0-9]+}/ship',
    idFrom('Order'),
    validForm(shipBody, 'Not shipped', (c) => backTo(c.req.param('id') ?? '')),
    (c) => {
      try {
        const order = shipOrder(c.env.deps, pathId(c), c.req.valid('form'));
        setFlash(c, { title: 'Order shipped', description: `Order #${order.id}: ${order.carrier} ${order.trackingNumber}. The customer was told.` });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        setFlash(c, { title: 'Not shipped', description: error.message, variant: 'destructive' });
      }
      return c.redirect(backTo(pathId(c)), 303);
    },
  )
  .post(
    '/admin/orders/:id{[0-9]+}/refund',
    idFrom('Order'),
    validForm(refundForm, 'Not refunded', (c) => backTo(c.req.param('id') ?? '')),
    async (c) => {
      const form = c.req.valid('form');
      // The button asks first, as Mark Delivered does: nothing is refunded until the admin confirms.
      if (form.confirmed !== 'yes') return confirmRefund(c, pathId(c), form);
      try {
        const result = await refundOrder(c.env.deps, pathId(c), {
          amountCents: dollarsTextToCents(form.amount),
          reason: form.reason,
          adminId: c.get('user')?.id ?? null,
          requestKey: form.key || undefined,
        });
        setFlash(c, { title: result.status === 200 ? 'Refunded' : 'Refund sent', description: result.message });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        setFlash(c, { title: 'Not refunded', description: error.message, variant: 'destructive' });
      }
      return c.redirect(backTo(pathId(c)), 303);
    },
  );
