import { eq, sql } from 'drizzle-orm'
import { cities, invoices, type packages, type payments, siteSettings, users, workshops, type InvoiceParty } from '~/db/schema'
import { type Language } from '~/i18n/config'
import { getFixedT } from '~/i18n/i18n.server'
import { queryRows, type DbOrTx } from '~/db/db.server'
import { getEnv } from '~/utils/env.server'
import { formatMoney } from '~/utils/money'
import { storeUpload } from '~/uploads/storage.server'
import { notFound } from '~/utils/errors'
import { letter } from '~/domain/messaging/email-templates.server'
import { sendEmail } from '~/domain/messaging/emails.server'
import { eInvoiceOf } from './e-invoice.server'
import { packageName } from './subscription'

/**
 * A workshop's invoices (docs/decisions/0061-invoices.md): the VAT on a price, the buyer, the
 * gapless number, the PDF and the e-mail (with the e-invoice when the workshop wants it). Issued in
 * the transaction that activates a payment (subscription.server.ts).
 */

type Tx = DbOrTx

/** VAT in basis points: VAT_RATE_PERCENT when set, else the site settings' rate, else 24 %. */
export async function vatRateBasisPoints(tx: Tx) {
	const fromEnv = getEnv().VAT_RATE_PERCENT
	if (fromEnv !== undefined) return Math.round(fromEnv * 100)
	const [row] = await tx.select({ rate: siteSettings.vatRateBasisPoints }).from(siteSettings).where(eq(siteSettings.id, true))
	return row?.rate ?? 2400
}

export async function priceWithVat(tx: Tx, netCents: number) {
	const rate = await vatRateBasisPoints(tx)
	const vat = Math.round((netCents * rate) / 10_000)
	return { netCents, rate, vatCents: vat, totalCents: netCents + vat }
}

type WorkshopBuyer = {
	userId: string
	email: string
	language: Language
	companyName: string
	companyId: string
	vatNumber: string | null
	billingEmail: string | null
	wantsEInvoice: boolean
	streetName: string
	zipCode: string
	state: string
	city: string | null
}

export async function buyerOf(tx: Tx, workshopId: string): Promise<WorkshopBuyer> {
	const [row] = await tx
		.select({
			userId: workshops.userId,
			email: users.email,
			language: users.preferredLanguage,
			companyName: workshops.companyName,
			companyId: workshops.companyId,
			vatNumber: workshops.vatNumber,
			billingEmail: workshops.billingEmail,
			wantsEInvoice: workshops.wantsEInvoice,
			streetName: workshops.streetName,
			zipCode: workshops.zipCode,
			state: workshops.state,
			city: cities.nameEt,
		})
		.from(workshops)
		.innerJoin(users, eq(users.id, workshops.userId))
		.leftJoin(cities, eq(cities.id, workshops.cityId))
		.where(eq(workshops.id, workshopId))
	if (!row) throw notFound()
	return { ...row, language: (row.language ?? 'et') as Language }
}

/**
 * The next invoice number: one more than the last, taken under a transaction-scoped advisory
 * lock, so numbers have no gaps (a rolled-back payment gives its number back) and two
 * activations at once cannot take the same one.
 */
async function nextInvoiceNumber(tx: Tx) {
	await tx.execute(sql`select pg_advisory_xact_lock(hashtext('autohub.invoice_number'))`)
	const [row] = await queryRows<{ n: number }>(tx, sql`select coalesce(max(number), 999)::int + 1 as n from invoices`)
	return row!.n
}

export async function issueInvoice(tx: Tx, payment: typeof payments.$inferSelect, pkg: typeof packages.$inferSelect, periodStart: Date, periodEnd: Date) {
	const buyer = await buyerOf(tx, payment.workshopId)
	const [settings] = await tx.select().from(siteSettings).where(eq(siteSettings.id, true))
	const seller: InvoiceParty = {
		name: settings?.companyName || settings?.appname || 'Autohub',
		companyId: settings?.companyRegistryCode || undefined,
		vatNumber: settings?.vatNumber || undefined,
		address: settings?.siteAddressEstonian || settings?.siteAddress || '',
		email: settings?.siteEmail ?? '',
	}
	const billingEmail = buyer.billingEmail ?? buyer.email
	const buyerParty: InvoiceParty = {
		name: buyer.companyName,
		companyId: buyer.companyId,
		vatNumber: buyer.vatNumber || undefined,
		address: [buyer.streetName, [buyer.zipCode, buyer.city].filter(Boolean).join(' '), buyer.state].filter(Boolean).join(', '),
		postal: { street: buyer.streetName, postalCode: buyer.zipCode, city: buyer.city ?? '', region: buyer.state },
		email: billingEmail,
	}
	// The invoice states what was charged (a price changed later does not rewrite a renewal).
	const rate = await vatRateBasisPoints(tx)
	const netCents = Math.round((payment.amountCents * 10_000) / (10_000 + rate))
	const price = { netCents, rate, vatCents: payment.amountCents - netCents, totalCents: payment.amountCents }
	const number = await nextInvoiceNumber(tx)
	const issuedAt = new Date()
	const document = {
		number,
		issuedAt,
		seller,
		buyer: buyerParty,
		packageName: pkg.nameEt === pkg.nameEn ? pkg.nameEn : `${pkg.nameEt} / ${pkg.nameEn}`,
		periodStart,
		periodEnd,
		netCents: price.netCents,
		vatRateBasisPoints: price.rate,
		vatCents: price.vatCents,
		totalCents: price.totalCents,
		currency: pkg.currency,
	}
	// pdf-lib is loaded with the first invoice, not at start (decision 0094).
	const { renderInvoicePdf } = await import('./invoice-pdf.server')
	const pdf = await storeUpload(tx, {
		bytes: await renderInvoicePdf(document, buyer.language),
		purpose: 'invoice',
		ownerId: buyer.userId,
		originalName: `invoice-${number}.pdf`,
	})
	const { issuedAt: _issuedAt, ...stored } = document
	const [invoice] = await tx
		.insert(invoices)
		.values({
			...stored,
			workshopId: payment.workshopId,
			paymentId: payment.id,
			pdfUploadId: pdf.id,
			createdAt: issuedAt,
		})
		.returning({ id: invoices.id })
	const t = getFixedT(buyer.language, 'billing')
	const subject = t('email.invoice.subject', { number })
	const text = t('email.invoice.text', {
		company: buyer.companyName,
		number,
		package: packageName(pkg, buyer.language),
		total: formatMoney(price.totalCents, buyer.language, pkg.currency),
		url: `${getEnv().APP_URL}/subscription?lng=${buyer.language}`,
	})
	// A workshop that wants e-invoices gets the XML beside the PDF, said before the page's link (decision 0110).
	const eInvoice = buyer.wantsEInvoice ? await eInvoiceOf(document) : null
	const content = letter(subject, text)
	if (eInvoice) content.paragraphs.splice(-1, 0, t('email.invoice.eInvoiceAttached'))
	await sendEmail(tx, {
		to: billingEmail,
		language: buyer.language,
		subject,
		content,
		attachments: [
			{ uploadId: pdf.id, filename: `invoice-${number}.pdf` },
			...(eInvoice ? [{ filename: eInvoice.filename, contentType: 'application/xml; charset=utf-8', content: eInvoice.xml }] : []),
		],
	})
	return invoice!.id
}
