import { create } from 'xmlbuilder2'
import { type InvoiceParty } from '~/db/schema'
import { getFixedT } from '~/i18n/i18n.server'
import { tallinnDay } from '~/utils/time'
import type { InvoiceDocument } from './invoice-pdf.server'

/**
 * An invoice as an EN 16931 e-invoice in the UBL 2.1 syntax (decision 0110): the core invoice of
 * the European standard (`CustomizationID` urn:cen.eu:en16931:2017, no further CIUS such as
 * Peppol's, so no `ProfileID`), one line for the package's month, VAT standard rated. Written with
 * xmlbuilder2 (escaping, namespaces, UTF-8); this module and xmlbuilder2 load with the first
 * e-invoice, not at start (decision 0094).
 *
 * The invoice is paid when it is issued (the payment activates the package): the whole total is
 * the paid amount (BT-113) and nothing is due (BT-115 0.00); the due date is the issue date.
 */

const INVOICE = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2'
const CAC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2'
const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2'
export const EN16931 = 'urn:cen.eu:en16931:2017'

/** Seller and buyer are Estonian companies: the marketplace serves Estonia. */
const COUNTRY = 'EE'

type Element = { [name: string]: string | Element | Element[] }

/** Integer cents as the amount EN 16931 writes: two decimals, a dot ("35.96"). */
export function amountOf(cents: number): string {
	const sign = cents < 0 ? '-' : ''
	const abs = Math.abs(cents)
	return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
}

/** Basis points as a percentage ("24", "22.5"). */
const percentOf = (basisPoints: number) => String(basisPoints / 100)

const money = (cents: number, currency: string): Element => ({ '@currencyID': currency, '#': amountOf(cents) })

/**
 * A party: its name, postal address, VAT number (when it has one), legal registration (name and
 * registry code) and e-mail, in UBL's order (Party: PartyName, PostalAddress, PartyTaxScheme,
 * PartyLegalEntity, Contact).
 */
function party(who: InvoiceParty): Element {
	const address: Element = who.postal
		? {
				...(who.postal.street ? { 'cbc:StreetName': who.postal.street } : {}),
				...(who.postal.city ? { 'cbc:CityName': who.postal.city } : {}),
				...(who.postal.postalCode ? { 'cbc:PostalZone': who.postal.postalCode } : {}),
				...(who.postal.region ? { 'cbc:CountrySubentity': who.postal.region } : {}),
			}
		: who.address
			? { 'cbc:StreetName': who.address }
			: {}
	return {
		'cac:PartyName': { 'cbc:Name': who.name },
		'cac:PostalAddress': { ...address, 'cac:Country': { 'cbc:IdentificationCode': COUNTRY } },
		...(who.vatNumber ? { 'cac:PartyTaxScheme': { 'cbc:CompanyID': who.vatNumber, 'cac:TaxScheme': { 'cbc:ID': 'VAT' } } } : {}),
		'cac:PartyLegalEntity': { 'cbc:RegistrationName': who.name, ...(who.companyId ? { 'cbc:CompanyID': who.companyId } : {}) },
		...(who.email ? { 'cac:Contact': { 'cbc:ElectronicMail': who.email } } : {}),
	}
}

/** The UBL 2.1 Invoice of an invoice, UTF-8, with its XML declaration. */
export function renderInvoiceXml(invoice: InvoiceDocument): string {
	const { currency } = invoice
	// Standard rated (S) with the site's rate; a zero rate would be zero rated (Z).
	const category: Element = {
		'cbc:ID': invoice.vatRateBasisPoints > 0 ? 'S' : 'Z',
		'cbc:Percent': percentOf(invoice.vatRateBasisPoints),
		'cac:TaxScheme': { 'cbc:ID': 'VAT' },
	}
	const issued = tallinnDay(invoice.issuedAt)
	const terms = `${getFixedT('et', 'billing')('eInvoice.paymentTerms')} / ${getFixedT('en', 'billing')('eInvoice.paymentTerms')}`
	const document: Element = {
		Invoice: {
			'@xmlns': INVOICE,
			'@xmlns:cac': CAC,
			'@xmlns:cbc': CBC,
			'cbc:CustomizationID': EN16931,
			'cbc:ID': String(invoice.number),
			'cbc:IssueDate': issued,
			'cbc:DueDate': issued,
			// 380: a commercial invoice.
			'cbc:InvoiceTypeCode': '380',
			'cbc:DocumentCurrencyCode': currency,
			'cac:InvoicePeriod': { 'cbc:StartDate': tallinnDay(invoice.periodStart), 'cbc:EndDate': tallinnDay(invoice.periodEnd) },
			'cac:AccountingSupplierParty': { 'cac:Party': party(invoice.seller) },
			'cac:AccountingCustomerParty': { 'cac:Party': party(invoice.buyer) },
			'cac:PaymentTerms': { 'cbc:Note': terms },
			'cac:TaxTotal': {
				'cbc:TaxAmount': money(invoice.vatCents, currency),
				'cac:TaxSubtotal': {
					'cbc:TaxableAmount': money(invoice.netCents, currency),
					'cbc:TaxAmount': money(invoice.vatCents, currency),
					'cac:TaxCategory': category,
				},
			},
			'cac:LegalMonetaryTotal': {
				'cbc:LineExtensionAmount': money(invoice.netCents, currency),
				'cbc:TaxExclusiveAmount': money(invoice.netCents, currency),
				'cbc:TaxInclusiveAmount': money(invoice.totalCents, currency),
				'cbc:PrepaidAmount': money(invoice.totalCents, currency),
				'cbc:PayableAmount': money(0, currency),
			},
			'cac:InvoiceLine': {
				'cbc:ID': '1',
				// One month of the package (UN/ECE Recommendation 20: MON).
				'cbc:InvoicedQuantity': { '@unitCode': 'MON', '#': '1' },
				'cbc:LineExtensionAmount': money(invoice.netCents, currency),
				'cac:Item': { 'cbc:Name': invoice.packageName, 'cac:ClassifiedTaxCategory': category },
				'cac:Price': { 'cbc:PriceAmount': money(invoice.netCents, currency) },
			},
		},
	}
	return create({ version: '1.0', encoding: 'UTF-8' }, normalized(document)).end({ prettyPrint: true })
}

/** Every text in Unicode's composed form (NFC), as the PDF prints it: "Õ" is one letter, not two. */
function normalized(element: Element): Element {
	return Object.fromEntries(
		Object.entries(element).map(([name, value]) => [
			name,
			typeof value === 'string' ? value.normalize('NFC') : Array.isArray(value) ? value.map(normalized) : normalized(value),
		]),
	)
}
