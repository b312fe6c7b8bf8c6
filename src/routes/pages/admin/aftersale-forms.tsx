import { Hono } from 'hono';
import { shipOrder } from '../../../domain/orders/aftersale.ts';
import { refundOrder } from '../../../domain/orders/aftersale-refund.ts';
import { DomainError } from '../../../domain/errors.ts';
import type { AppEnv } from '../../../http/context.ts';
import { setFlash } from '../../../http/flash.ts';
import { idFrom, pathId, validForm } from '../../../http/request.ts';
import { dollarsTextToCents, refundForm, shipBody } from '../../../shared/schemas/aftersale.ts';

/**
 * The Orders tab's Ship and Refund forms (behind the admin gate of index.tsx), answered with a
 * toast back on the order. The refund form carries a key made when it was shown, so the same
 * form sent twice refunds once and two forms refund twice.
 */

const backTo = (id: number | string) => `/admin?tab=orders#order-${id}`;

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
