import { and, eq } from 'drizzle-orm'
import { invoices, workshops } from '~/db/schema'
import { type SessionUser } from '~/utils/auth.server'
import { db } from '~/db/db.server'
import type { InvoiceDocument } from './invoice-pdf.server'

/**
 * The e-invoice (EN 16931, UBL 2.1 XML) of a subscription invoice (issue 21, decision 0110): made
 * from the invoice's row whenever it is asked for (the row copies seller and buyer, so it never
 * changes), downloaded from /subscription/invoices/{number}.xml and attached to the invoice e-mail
 * of a workshop that wants e-invoices. The XML itself: e-invoice-xml.server.ts, loaded on first use.
 */

export type EInvoiceFile = { filename: string; xml: string }

/** The e-invoice of an invoice as it is issued or stored. */
export async function eInvoiceOf(invoice: InvoiceDocument): Promise<EInvoiceFile> {
	// xmlbuilder2 loads with the first e-invoice, not at start (decision 0094, server-start.spec).
	const { renderInvoiceXml } = await import('./e-invoice-xml.server')
	return { filename: `invoice-${invoice.number}.xml`, xml: renderInvoiceXml(invoice) }
}

/**
 * The e-invoice of invoice `number` for its workshop's own user or an administrator; for anyone
 * else, another workshop too, null (the route's 404, as for a number that does not exist).
 */
export async function findEInvoice(number: number, viewer: Pick<SessionUser, 'id' | 'role'>): Promise<EInvoiceFile | null> {
	if (!Number.isSafeInteger(number) || number < 1 || number > 2_147_483_647) return null
	const [row] = await db
		.select({ invoice: invoices })
		.from(invoices)
		.innerJoin(workshops, eq(workshops.id, invoices.workshopId))
		.where(and(eq(invoices.number, number), viewer.role === 'admin' ? undefined : eq(workshops.userId, viewer.id)))
	if (!row) return null
	const { createdAt, pdfUploadId: _pdf, workshopId: _workshop, paymentId: _payment, id: _id, ...stored } = row.invoice
	return eInvoiceOf({ ...stored, issuedAt: createdAt })
}
