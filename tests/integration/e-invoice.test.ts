import { and, eq } from 'drizzle-orm'
import { parseWithZod } from '@conform-to/zod/v4'
import { beforeAll, describe, expect, test } from 'vitest'
import { emailOutbox, invoices, packages, siteSettings, users, workshops } from '~/db/schema'
import { findEInvoice } from '~/domain/billing/e-invoice.server'
import { BillingDetailsSchema } from '~/domain/billing/subscription'
import { loadSubscriptionPage } from '~/domain/billing/subscription-page.server'
import { payTestPayment, saveBillingDetails, subscribe } from '~/domain/billing/subscription.server'
import { type WorkshopActor } from '~/utils/auth.server'
import { loader as eInvoiceLoader } from '~/routes/subscription.invoices.$number[.]xml'
import { db } from '~/db/db.server'
import { processOutbox } from '~/email/outbox.server'
import { decodeId } from '~/utils/public-id'
import { createAdmin, createCustomer, signedInRequest } from '#tests/support/accounts'
import { type SignInMethod } from '~/utils/auth.server'
import { checkEn16931, checkUblStructure, en16931Rules, invoiceValue } from '#tests/support/en16931'
import { referenceData, workshopOffering } from '#tests/support/flow'
import { useSmtpSink } from '#tests/support/use-smtp-sink'
import { ROUTER_ARGS } from '#tests/support/router-args'

/**
 * Issue 21, part 5 (decision 0110): every subscription invoice is also an EN 16931 e-invoice in
 * UBL 2.1, downloaded beside its PDF by its workshop (and administrators), and attached to the
 * invoice e-mail of a workshop that asks for e-invoices. Real parts throughout: the registration,
 * the test payment provider's activation, the route's loader, the outbox over SMTP.
 */

const sink = useSmtpSink()
let pro: typeof packages.$inferSelect

beforeAll(async () => {
	await referenceData()
	pro = (await db.select().from(packages).where(eq(packages.code, 'pro')))[0]!
})

const billingEmailOf = (workshop: WorkshopActor) => `arved-${workshop.workshopId.slice(0, 8)}@example.com`

async function workshopWithBilling(details: { vatNumber?: string; wantsEInvoice?: boolean } = {}) {
	const workshop = await workshopOffering([(await referenceData()).tyres])
	await saveBillingDetails(workshop.workshopId, {
		billingEmail: billingEmailOf(workshop),
		vatNumber: details.vatNumber ?? null,
		wantsEInvoice: details.wantsEInvoice ?? false,
	})
	return workshop
}

/** Subscribes to the paid package through the test provider and pays: the invoice is issued. */
async function goPro(workshop: WorkshopActor) {
	const outcome = await subscribe(workshop.workshopId, pro.id)
	if (outcome.kind !== 'checkout') throw new Error(`expected a checkout, got ${outcome.kind}`)
	expect((await payTestPayment(workshop.workshopId, decodeId(outcome.url.split('/').pop())!)).outcome).toBe('activated')
	return (await db.select().from(invoices).where(eq(invoices.workshopId, workshop.workshopId)))[0]!
}

const xmlPath = (number: number | string) => `/subscription/invoices/${number}.xml`

/** The route as a browser asks it: signed in as `userId`, or anonymous. */
async function download(number: number | string, userId: string | null, method: SignInMethod = 'password') {
	const url = `http://localhost${xmlPath(number)}`
	const request = userId ? (await signedInRequest(userId, url, method)).request : new Request(url)
	return eInvoiceLoader({ request, params: { number: String(number) }, ...ROUTER_ARGS, context: {} }).catch((thrown: unknown) => thrown as Response)
}

describe('the e-invoice', () => {
	test('meets EN 16931 in UBL 2.1: both parties with registry codes and VAT numbers, names in Estonian and Cyrillic, amounts, VAT, period, terms', async () => {
		const workshop = await workshopWithBilling({ vatNumber: 'EE100200300' })
		await db
			.update(workshops)
			.set({ companyName: 'ООО Шиномонтаж Õunapuu', streetName: 'Пярнуское шоссе 12 & Co <2>', zipCode: '10111', state: 'Harjumaa' })
			.where(eq(workshops.id, workshop.workshopId))
		const invoice = await goPro(workshop)
		const file = (await findEInvoice(invoice.number, { id: workshop.userId, role: 'workshop' }))!
		expect(file.filename).toBe(`invoice-${invoice.number}.xml`)
		const { xml } = file
		expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true)

		// The standard's business rules, and UBL 2.1's structure.
		const report = checkEn16931(xml)
		expect(report.failed).toEqual([])
		expect(report.checked).toEqual(expect.arrayContaining(['BR-01', 'BR-16', 'BR-CO-10', 'BR-CO-16', 'BR-S-01', 'BR-S-10', 'BR-DEC-23']))
		expect(checkUblStructure(xml)).toEqual([])

		const value = (path: string) => invoiceValue(xml, path)
		const [settings] = await db.select().from(siteSettings).where(eq(siteSettings.id, true))
		expect(value('/ubl:Invoice/cbc:CustomizationID')).toBe('urn:cen.eu:en16931:2017')
		expect(value('count(/ubl:Invoice/cbc:ProfileID)')).toBe('0')
		expect(value('/ubl:Invoice/cbc:ID')).toBe(String(invoice.number))
		expect(value('/ubl:Invoice/cbc:InvoiceTypeCode')).toBe('380')
		expect(value('/ubl:Invoice/cbc:DocumentCurrencyCode')).toBe('EUR')
		expect(value('/ubl:Invoice/cbc:IssueDate')).toMatch(/^\d{4}-\d{2}-\d{2}$/)
		expect(value('/ubl:Invoice/cbc:DueDate')).toBe(value('/ubl:Invoice/cbc:IssueDate'))
		expect(value('/ubl:Invoice/cac:PaymentTerms/cbc:Note')).toBe('Tasutud ettemaksuna / Paid in advance')
		expect(value('/ubl:Invoice/cac:InvoicePeriod/cbc:StartDate')).toMatch(/^\d{4}-\d{2}-\d{2}$/)
		expect(value('/ubl:Invoice/cac:InvoicePeriod/cbc:EndDate') > value('/ubl:Invoice/cac:InvoicePeriod/cbc:StartDate')).toBe(true)

		// The seller (the site's company) and the buyer (the workshop), as the invoice row has them.
		const seller = '/ubl:Invoice/cac:AccountingSupplierParty/cac:Party'
		expect(value(`${seller}/cac:PartyLegalEntity/cbc:RegistrationName`)).toBe(settings!.companyName)
		expect(value(`${seller}/cac:PartyLegalEntity/cbc:CompanyID`)).toBe(settings!.companyRegistryCode)
		expect(value(`${seller}/cac:PartyTaxScheme[cac:TaxScheme/cbc:ID = 'VAT']/cbc:CompanyID`)).toBe(settings!.vatNumber)
		const buyer = '/ubl:Invoice/cac:AccountingCustomerParty/cac:Party'
		expect(value(`${buyer}/cac:PartyLegalEntity/cbc:RegistrationName`)).toBe('ООО Шиномонтаж Õunapuu')
		expect(value(`${buyer}/cac:PartyName/cbc:Name`)).toBe('ООО Шиномонтаж Õunapuu')
		expect(value(`${buyer}/cac:PartyLegalEntity/cbc:CompanyID`)).toBe('1234567890')
		expect(value(`${buyer}/cac:PartyTaxScheme[cac:TaxScheme/cbc:ID = 'VAT']/cbc:CompanyID`)).toBe('EE100200300')
		expect(value(`${buyer}/cac:PostalAddress/cbc:StreetName`)).toBe('Пярнуское шоссе 12 & Co <2>')
		expect(value(`${buyer}/cac:PostalAddress/cbc:PostalZone`)).toBe('10111')
		expect(value(`${buyer}/cac:PostalAddress/cbc:CountrySubentity`)).toBe('Harjumaa')
		expect(value(`${buyer}/cac:PostalAddress/cac:Country/cbc:IdentificationCode`)).toBe('EE')
		expect(value(`${buyer}/cac:Contact/cbc:ElectronicMail`)).toBe(billingEmailOf(workshop))
		// Written as one composed letter, escaped where XML needs it.
		expect(xml).toContain('Õunapuu'.normalize('NFC'))
		expect(xml).toContain('Пярнуское шоссе 12 &amp; Co &lt;2&gt;')

		// The amounts: 29.00 + 24 % VAT, paid in advance, nothing due.
		expect(invoice).toMatchObject({ netCents: 2900, vatRateBasisPoints: 2400, vatCents: 696, totalCents: 3596 })
		const totals = '/ubl:Invoice/cac:LegalMonetaryTotal'
		expect(value(`${totals}/cbc:LineExtensionAmount`)).toBe('29.00')
		expect(value(`${totals}/cbc:TaxExclusiveAmount`)).toBe('29.00')
		expect(value(`${totals}/cbc:TaxInclusiveAmount`)).toBe('35.96')
		expect(value(`${totals}/cbc:PrepaidAmount`)).toBe('35.96')
		expect(value(`${totals}/cbc:PayableAmount`)).toBe('0.00')
		const breakdown = '/ubl:Invoice/cac:TaxTotal/cac:TaxSubtotal'
		expect(value('/ubl:Invoice/cac:TaxTotal/cbc:TaxAmount')).toBe('6.96')
		expect([value(`${breakdown}/cbc:TaxableAmount`), value(`${breakdown}/cbc:TaxAmount`)]).toEqual(['29.00', '6.96'])
		expect([value(`${breakdown}/cac:TaxCategory/cbc:ID`), value(`${breakdown}/cac:TaxCategory/cbc:Percent`)]).toEqual(['S', '24'])
		const line = '/ubl:Invoice/cac:InvoiceLine'
		expect(value(`${line}/cac:Item/cbc:Name`)).toBe(invoice.packageName)
		expect(value(`${line}/cbc:InvoicedQuantity/@unitCode`)).toBe('MON')
		expect(value(`${line}/cac:Price/cbc:PriceAmount`)).toBe('29.00')
	})

	test('the checks are not empty words: a broken e-invoice is refused with the rule it breaks', async () => {
		const workshop = await workshopWithBilling()
		const invoice = await goPro(workshop)
		const { xml } = (await findEInvoice(invoice.number, { id: workshop.userId, role: 'workshop' }))!
		// Without a VAT number the buyer has no PartyTaxScheme, and the invoice is still valid.
		expect(checkEn16931(xml).failed).toEqual([])
		expect(invoiceValue(xml, "count(//cac:AccountingCustomerParty//cac:PartyTaxScheme)")).toBe('0')

		const failing = (broken: string) => checkEn16931(broken).failed.map((finding) => finding.id)
		expect(failing(xml.replace('<cbc:TaxInclusiveAmount currencyID="EUR">35.96<', '<cbc:TaxInclusiveAmount currencyID="EUR">35.97<'))).toEqual(
			expect.arrayContaining(['BR-CO-15', 'BR-CO-16']),
		)
		expect(failing(xml.replace('<cbc:TaxAmount currencyID="EUR">6.96</cbc:TaxAmount>', '<cbc:TaxAmount currencyID="EUR">8.96</cbc:TaxAmount>'))).toContain('BR-CO-14')
		expect(failing(xml.replace(/<cbc:Percent>24<\/cbc:Percent>/g, '<cbc:Percent>9</cbc:Percent>'))).toEqual(expect.arrayContaining(['BR-CO-17', 'BR-S-09']))
		expect(failing(xml.replace(/<cac:PartyTaxScheme>[\s\S]*?<\/cac:PartyTaxScheme>/, ''))).toContain('BR-S-02')
		expect(failing(xml.replace(/<cbc:RegistrationName>[^<]*<\/cbc:RegistrationName>/, '<cbc:RegistrationName> </cbc:RegistrationName>'))).toContain('BR-06')
		expect(failing(xml.replace('<cbc:PayableAmount currencyID="EUR">0.00<', '<cbc:PayableAmount currencyID="EUR">0.001<'))).toEqual(
			expect.arrayContaining(['BR-DEC-18', 'BR-CO-16']),
		)
		expect(failing(xml.replace('<cbc:DocumentCurrencyCode>EUR<', '<cbc:DocumentCurrencyCode>USD<'))).toContain('UBL-SR-currency')
		expect(failing(xml.replace(/<cac:InvoiceLine>[\s\S]*<\/cac:InvoiceLine>/, ''))).toEqual(expect.arrayContaining(['BR-16', 'BR-CO-10']))
		expect(() => checkEn16931(xml.replace('</Invoice>', ''))).toThrow()
		// Every rule was run on the real invoice; the structure check finds an element out of UBL's order.
		expect(en16931Rules.length).toBeGreaterThan(50)
		expect(checkUblStructure(xml.replace(/(<cbc:DueDate>[^<]*<\/cbc:DueDate>)([\s\S]*?)(<cbc:ID>)/, '$2$1$3'))).not.toEqual([])
		expect(checkUblStructure(xml.replace('<cbc:DueDate>', '<cbc:DueDate>2026-01-01</cbc:DueDate><cbc:DueDate>'))).toContain('/Invoice/cbc:DueDate: only once')
	})
})

describe('/subscription/invoices/{number}.xml', () => {
	test('the workshop downloads its own; an administrator too; another workshop, a customer and an unknown number get 404; a visitor is sent to log in', async () => {
		const workshop = await workshopWithBilling()
		const invoice = await goPro(workshop)

		const own = await download(invoice.number, workshop.userId)
		expect(own.status).toBe(200)
		expect(own.headers.get('Content-Type')).toBe('application/xml; charset=utf-8')
		expect(own.headers.get('Content-Disposition')).toBe(`attachment; filename="invoice-${invoice.number}.xml"`)
		expect(own.headers.get('Cache-Control')).toBe('private, no-store')
		const xml = await own.text()
		expect(checkEn16931(xml).failed).toEqual([])
		expect(invoiceValue(xml, '/ubl:Invoice/cbc:ID')).toBe(String(invoice.number))

		// An administrator, with the second factor an administrator's session needs (decision 0156);
		// signed in by a password alone, they are sent to confirm it first.
		const admin = await createAdmin()
		const asAdmin = await download(invoice.number, admin.id, 'passkey')
		expect(asAdmin.status).toBe(200)
		expect(await asAdmin.text()).toBe(xml)
		const passwordOnly = await download(invoice.number, admin.id)
		expect(passwordOnly.status).toBe(302)
		expect(passwordOnly.headers.get('Location')).toBe(`/admin/verify?redirectTo=${encodeURIComponent(xmlPath(invoice.number))}`)

		const other = await workshopWithBilling()
		expect((await download(invoice.number, other.userId)).status).toBe(404)
		expect((await download(invoice.number, (await createCustomer()).id)).status).toBe(404)
		expect((await download(999_999_999, workshop.userId)).status).toBe(404)
		for (const number of ['0', '01000', 'abc', '99999999999']) expect((await download(number, workshop.userId)).status).toBe(404)

		const anonymous = await download(invoice.number, null)
		expect(anonymous.status).toBe(302)
		expect(anonymous.headers.get('Location')).toBe(`/?redirectTo=${encodeURIComponent(xmlPath(invoice.number))}`)
	})

	test('the subscription page links every invoice to its e-invoice beside the PDF', async () => {
		const workshop = await workshopWithBilling()
		const invoice = await goPro(workshop)
		const page = await loadSubscriptionPage(workshop.workshopId, 'et')
		expect(page.invoices.map((row) => [row.number, row.eInvoiceUrl])).toEqual([[invoice.number, xmlPath(invoice.number)]])
		expect(page.invoices[0]!.downloadUrl).toBeTruthy()
	})
})

describe('the invoice e-mail', () => {
	test('carries the e-invoice beside the PDF when the workshop asks for e-invoices, and only then', async () => {
		const wants = await workshopWithBilling({ wantsEInvoice: true, vatNumber: 'EE100200311' })
		const issued = await goPro(wants)
		const [mail] = await db.select().from(emailOutbox).where(eq(emailOutbox.to, billingEmailOf(wants)))
		expect(mail!.attachments.map((attachment) => attachment.filename)).toEqual([`invoice-${issued.number}.pdf`, `invoice-${issued.number}.xml`])
		const attached = mail!.attachments[1]!
		expect('content' in attached && attached.contentType).toBe('application/xml; charset=utf-8')
		const xml = 'content' in attached ? attached.content : ''
		expect(xml).toBe((await findEInvoice(issued.number, { id: wants.userId, role: 'workshop' }))!.xml)
		expect(checkEn16931(xml).failed).toEqual([])
		expect(mail!.text).toContain('EN 16931')
		expect(mail!.text.indexOf('EN 16931')).toBeLessThan(mail!.text.indexOf('/subscription?lng='))

		const plain = await workshopWithBilling()
		const other = await goPro(plain)
		const [plainMail] = await db.select().from(emailOutbox).where(eq(emailOutbox.to, billingEmailOf(plain)))
		expect(plainMail!.attachments.map((attachment) => attachment.filename)).toEqual([`invoice-${other.number}.pdf`])
		expect(plainMail!.text).not.toContain('EN 16931')

		// Both delivered over SMTP, the XML as its own attachment.
		await processOutbox()
		const delivered = (to: string) => sink.received.find((received) => received.to.includes(to))!
		expect(delivered(billingEmailOf(wants)).attachments.map(({ filename, mimeType }) => ({ filename, mimeType }))).toEqual([
			{ filename: `invoice-${issued.number}.pdf`, mimeType: 'application/pdf' },
			{ filename: `invoice-${issued.number}.xml`, mimeType: 'application/xml' },
		])
		expect(delivered(billingEmailOf(wants)).attachments[1]!.size).toBe(Buffer.byteLength(xml))
		expect(delivered(billingEmailOf(plain)).attachments.map(({ filename }) => filename)).toEqual([`invoice-${other.number}.pdf`])
	})

	test('the billing details form: the VAT number as people type it, stored as the standard writes it; a wrong one refused at its field', async () => {
		const parse = (fields: Record<string, string>) => {
			const form = new FormData()
			for (const [name, value] of Object.entries(fields)) form.set(name, value)
			return parseWithZod(form, { schema: BillingDetailsSchema })
		}
		const ok = parse({ billingEmail: 'Arved@Example.com', vatNumber: ' ee 100.200-300 ', wantsEInvoice: 'on' })
		expect(ok.status === 'success' && ok.value).toEqual({ billingEmail: 'arved@example.com', vatNumber: 'EE100200300', wantsEInvoice: true })
		const none = parse({ billingEmail: 'arved@example.com', vatNumber: '  ' })
		expect(none.status === 'success' && none.value).toEqual({ billingEmail: 'arved@example.com', vatNumber: null, wantsEInvoice: false })
		for (const vatNumber of ['100200300', 'EE', 'EE1002003001234567']) {
			const refused = parse({ billingEmail: 'arved@example.com', vatNumber })
			expect(refused.status === 'error' && refused.error?.vatNumber).toEqual(['validation.vatNumber'])
		}

		// Saved, shown again, and printed on the next invoice as the buyer's.
		const workshop = await workshopWithBilling({ vatNumber: 'EE100200322', wantsEInvoice: true })
		const page = await loadSubscriptionPage(workshop.workshopId, 'en')
		expect([page.vatNumber, page.wantsEInvoice]).toEqual(['EE100200322', true])
		const invoice = await goPro(workshop)
		expect(invoice.buyer.vatNumber).toBe('EE100200322')
		const [row] = await db.select({ wants: workshops.wantsEInvoice }).from(workshops).where(and(eq(workshops.id, workshop.workshopId)))
		expect(row!.wants).toBe(true)
		expect((await db.select().from(users).where(eq(users.id, workshop.userId)))[0]!.role).toBe('workshop')
	})
})
