import { evaluateXPathToBoolean, evaluateXPathToNodes, evaluateXPathToString } from 'fontoxpath'
import { parseXmlDocument, type Document, type Element, type Node } from 'slimdom'

/**
 * Checks an e-invoice in the UBL 2.1 syntax against the European standard EN 16931-1, for the
 * tests of decision 0110. The official artefacts (CEN/TC 434's schematron, EN16931-UBL-validation.xslt,
 * and OASIS's UBL 2.1 XSD) are not published on npm, so a test cannot fetch them: the rules that
 * apply to our invoices are written here as XPath 3.1 (fontoxpath over a slimdom document), one
 * assertion per business rule, named as the standard names them, in the schematron's way (a
 * context, and a test that must hold in each node of it). `checkUblStructure` checks what the XSD
 * would for the elements we write: which children each may have, in UBL's order, how many times.
 *
 * During development the same invoices were also checked with the official validation artefacts
 * (the CEN XSLT, release 1.3.16, run with SaxonJS; the UBL 2.1 XSD with xmllint): no finding.
 */

const namespaces: Record<string, string> = {
	ubl: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
	cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
	cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
}
const options = { namespaceResolver: (prefix: string) => namespaces[prefix] ?? null }

type Rule = { id: string; context: string; test: string; text: string }

const invoice = '/ubl:Invoice'
const seller = `${invoice}/cac:AccountingSupplierParty/cac:Party`
const buyer = `${invoice}/cac:AccountingCustomerParty/cac:Party`
const totals = `${invoice}/cac:LegalMonetaryTotal`
const vatSubtotal = `${invoice}/cac:TaxTotal/cac:TaxSubtotal[cac:TaxCategory/cac:TaxScheme/cbc:ID = 'VAT']`
/** An amount with at most two decimals (BR-DEC-*). */
const twoDecimals = (path: string) => `every $a in ${path} satisfies matches(normalize-space($a), '^-?[0-9]+(\\.[0-9]{1,2})?$')`
/** Money rounded to cents, as the standard's rules compare it. */
const cents = (expression: string) => `(round((${expression}) * 100) div 100)`

export const en16931Rules: readonly Rule[] = [
	// The invoice's own data (BR-01 … BR-16).
	{ id: 'BR-01', context: invoice, test: "normalize-space(cbc:CustomizationID) != ''", text: 'Specification identifier (BT-24)' },
	{ id: 'BR-02', context: invoice, test: "normalize-space(cbc:ID) != ''", text: 'Invoice number (BT-1)' },
	{ id: 'BR-03', context: invoice, test: "normalize-space(cbc:IssueDate) != ''", text: 'Invoice issue date (BT-2)' },
	{ id: 'BR-04', context: invoice, test: "normalize-space(cbc:InvoiceTypeCode) != ''", text: 'Invoice type code (BT-3)' },
	{ id: 'BR-05', context: invoice, test: "normalize-space(cbc:DocumentCurrencyCode) != ''", text: 'Invoice currency code (BT-5)' },
	{ id: 'BR-06', context: seller, test: "normalize-space(cac:PartyLegalEntity/cbc:RegistrationName) != ''", text: 'Seller name (BT-27)' },
	{ id: 'BR-07', context: buyer, test: "normalize-space(cac:PartyLegalEntity/cbc:RegistrationName) != ''", text: 'Buyer name (BT-44)' },
	{ id: 'BR-08', context: seller, test: 'exists(cac:PostalAddress)', text: 'Seller postal address (BG-5)' },
	{ id: 'BR-09', context: `${seller}/cac:PostalAddress`, test: "normalize-space(cac:Country/cbc:IdentificationCode) != ''", text: 'Seller country code (BT-40)' },
	{ id: 'BR-10', context: buyer, test: 'exists(cac:PostalAddress)', text: 'Buyer postal address (BG-8)' },
	{ id: 'BR-11', context: `${buyer}/cac:PostalAddress`, test: "normalize-space(cac:Country/cbc:IdentificationCode) != ''", text: 'Buyer country code (BT-55)' },
	{ id: 'BR-12', context: totals, test: 'exists(cbc:LineExtensionAmount)', text: 'Sum of Invoice line net amount (BT-106)' },
	{ id: 'BR-13', context: totals, test: 'exists(cbc:TaxExclusiveAmount)', text: 'Invoice total amount without VAT (BT-109)' },
	{ id: 'BR-14', context: totals, test: 'exists(cbc:TaxInclusiveAmount)', text: 'Invoice total amount with VAT (BT-112)' },
	{ id: 'BR-15', context: totals, test: 'exists(cbc:PayableAmount)', text: 'Amount due for payment (BT-115)' },
	{ id: 'BR-16', context: invoice, test: 'count(cac:InvoiceLine) >= 1', text: 'At least one Invoice line (BG-25)' },
	// The lines and the invoicing period.
	{ id: 'BR-21', context: `${invoice}/cac:InvoiceLine`, test: "normalize-space(cbc:ID) != ''", text: 'Invoice line identifier (BT-126)' },
	{ id: 'BR-22', context: `${invoice}/cac:InvoiceLine`, test: 'exists(cbc:InvoicedQuantity)', text: 'Invoiced quantity (BT-129)' },
	{ id: 'BR-23', context: `${invoice}/cac:InvoiceLine`, test: "normalize-space(cbc:InvoicedQuantity/@unitCode) != ''", text: 'Invoiced quantity unit of measure (BT-130)' },
	{ id: 'BR-24', context: `${invoice}/cac:InvoiceLine`, test: 'exists(cbc:LineExtensionAmount)', text: 'Invoice line net amount (BT-131)' },
	{ id: 'BR-25', context: `${invoice}/cac:InvoiceLine`, test: "normalize-space(cac:Item/cbc:Name) != ''", text: 'Item name (BT-153)' },
	{ id: 'BR-26', context: `${invoice}/cac:InvoiceLine`, test: 'exists(cac:Price/cbc:PriceAmount)', text: 'Item net price (BT-146)' },
	{ id: 'BR-27', context: `${invoice}/cac:InvoiceLine/cac:Price`, test: 'xs:decimal(cbc:PriceAmount) >= 0', text: 'Item net price not negative' },
	{
		id: 'BR-29',
		context: `${invoice}/cac:InvoicePeriod`,
		test: 'not(cbc:StartDate and cbc:EndDate) or xs:date(cbc:EndDate) >= xs:date(cbc:StartDate)',
		text: 'Invoicing period end date on or after its start date',
	},
	{ id: 'BR-CO-18', context: invoice, test: 'exists(cac:TaxTotal/cac:TaxSubtotal)', text: 'At least one VAT breakdown (BG-23)' },
	// Identifiers: a VAT identifier begins with its country's code (BR-CO-9).
	{
		id: 'BR-CO-09',
		context: `${invoice}//cac:PartyTaxScheme[cac:TaxScheme/cbc:ID = 'VAT']`,
		test: "matches(cbc:CompanyID, '^(EL|[A-Z]{2})[0-9A-Za-z+*.]{2,}$')",
		text: 'VAT identifier prefixed with a country code',
	},
	// The sums (BR-CO-10 … BR-CO-17, BR-CO-25).
	{
		id: 'BR-CO-10',
		context: totals,
		test: `xs:decimal(cbc:LineExtensionAmount) = ${cents('sum(../cac:InvoiceLine/xs:decimal(cbc:LineExtensionAmount))')}`,
		text: 'Sum of Invoice line net amount = Σ Invoice line net amount',
	},
	{
		id: 'BR-CO-11',
		context: totals,
		test: `(not(cbc:AllowanceTotalAmount) and not(../cac:AllowanceCharge[cbc:ChargeIndicator = 'false'])) or xs:decimal(cbc:AllowanceTotalAmount) = ${cents("sum(../cac:AllowanceCharge[cbc:ChargeIndicator = 'false']/xs:decimal(cbc:Amount))")}`,
		text: 'Sum of allowances on document level = Σ Document level allowance amount',
	},
	{
		id: 'BR-CO-12',
		context: totals,
		test: `(not(cbc:ChargeTotalAmount) and not(../cac:AllowanceCharge[cbc:ChargeIndicator = 'true'])) or xs:decimal(cbc:ChargeTotalAmount) = ${cents("sum(../cac:AllowanceCharge[cbc:ChargeIndicator = 'true']/xs:decimal(cbc:Amount))")}`,
		text: 'Sum of charges on document level = Σ Document level charge amount',
	},
	{
		id: 'BR-CO-13',
		context: totals,
		test: `xs:decimal(cbc:TaxExclusiveAmount) = ${cents('xs:decimal(cbc:LineExtensionAmount) - sum(cbc:AllowanceTotalAmount/xs:decimal(.)) + sum(cbc:ChargeTotalAmount/xs:decimal(.))')}`,
		text: 'Invoice total amount without VAT = Σ line net amounts − allowances + charges',
	},
	{
		id: 'BR-CO-14',
		context: `${invoice}/cac:TaxTotal[cac:TaxSubtotal]`,
		test: `xs:decimal(cbc:TaxAmount) = ${cents('sum(cac:TaxSubtotal/xs:decimal(cbc:TaxAmount))')}`,
		text: 'Invoice total VAT amount = Σ VAT category tax amount',
	},
	{
		id: 'BR-CO-15',
		context: invoice,
		test: `count(cac:TaxTotal[cbc:TaxAmount/@currencyID = current()/cbc:DocumentCurrencyCode]) = 1 and xs:decimal(cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount) = ${cents('xs:decimal(cac:LegalMonetaryTotal/cbc:TaxExclusiveAmount) + xs:decimal(cac:TaxTotal[cbc:TaxAmount/@currencyID = current()/cbc:DocumentCurrencyCode]/cbc:TaxAmount)')}`,
		text: 'Invoice total amount with VAT = amount without VAT + total VAT amount',
	},
	{
		id: 'BR-CO-16',
		context: totals,
		test: `xs:decimal(cbc:PayableAmount) = ${cents('xs:decimal(cbc:TaxInclusiveAmount) - sum(cbc:PrepaidAmount/xs:decimal(.)) + sum(cbc:PayableRoundingAmount/xs:decimal(.))')}`,
		text: 'Amount due for payment = total with VAT − paid amount + rounding amount',
	},
	{
		id: 'BR-CO-17',
		context: vatSubtotal,
		// As CEN's artefacts have it: the VAT amount may differ from taxable × rate by less than one currency unit.
		test: `abs(abs(xs:decimal(cbc:TaxAmount)) - ${cents('abs(xs:decimal(cbc:TaxableAmount)) * xs:decimal(cac:TaxCategory/cbc:Percent) div 100')}) < 1`,
		text: 'VAT category tax amount = VAT category taxable amount × VAT category rate',
	},
	{
		id: 'BR-CO-25',
		context: invoice,
		test: "xs:decimal(cac:LegalMonetaryTotal/cbc:PayableAmount) <= 0 or exists(cbc:DueDate) or normalize-space(cac:PaymentTerms/cbc:Note) != ''",
		text: 'A positive amount due has a payment due date or payment terms',
	},
	// Standard rated VAT (BR-S-01 … BR-S-10).
	{
		id: 'BR-S-01',
		context: invoice,
		test: "not(//cac:ClassifiedTaxCategory[cbc:ID = 'S'] or //cac:AllowanceCharge/cac:TaxCategory[cbc:ID = 'S']) or exists(cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory[cbc:ID = 'S'])",
		text: 'Standard rated items have a "Standard rated" VAT breakdown',
	},
	{
		id: 'BR-S-02',
		context: invoice,
		test: "not(cac:InvoiceLine/cac:Item/cac:ClassifiedTaxCategory[cbc:ID = 'S']) or exists(cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme[cac:TaxScheme/cbc:ID = 'VAT']/cbc:CompanyID) or exists(cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme[cac:TaxScheme/cbc:ID != 'VAT']/cbc:CompanyID) or exists(cac:TaxRepresentativeParty)",
		text: "A standard rated line needs the Seller's VAT identifier (or tax registration identifier, or tax representative)",
	},
	{
		id: 'BR-S-03',
		context: invoice,
		test: "not(cac:AllowanceCharge[cbc:ChargeIndicator = 'false']/cac:TaxCategory[cbc:ID = 'S']) or exists(cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID) or exists(cac:TaxRepresentativeParty)",
		text: "A standard rated allowance needs the Seller's VAT identifier",
	},
	{
		id: 'BR-S-04',
		context: invoice,
		test: "not(cac:AllowanceCharge[cbc:ChargeIndicator = 'true']/cac:TaxCategory[cbc:ID = 'S']) or exists(cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID) or exists(cac:TaxRepresentativeParty)",
		text: "A standard rated charge needs the Seller's VAT identifier",
	},
	{ id: 'BR-S-05', context: `${invoice}/cac:InvoiceLine/cac:Item/cac:ClassifiedTaxCategory[cbc:ID = 'S']`, test: 'xs:decimal(cbc:Percent) > 0', text: 'A standard rated line has a VAT rate above zero' },
	{ id: 'BR-S-06', context: `${invoice}/cac:AllowanceCharge[cbc:ChargeIndicator = 'false']/cac:TaxCategory[cbc:ID = 'S']`, test: 'xs:decimal(cbc:Percent) > 0', text: 'A standard rated allowance has a VAT rate above zero' },
	{ id: 'BR-S-07', context: `${invoice}/cac:AllowanceCharge[cbc:ChargeIndicator = 'true']/cac:TaxCategory[cbc:ID = 'S']`, test: 'xs:decimal(cbc:Percent) > 0', text: 'A standard rated charge has a VAT rate above zero' },
	{
		id: 'BR-S-08',
		context: `${vatSubtotal}[cac:TaxCategory/cbc:ID = 'S']`,
		test: `xs:decimal(cbc:TaxableAmount) = ${cents(
			"sum(/ubl:Invoice/cac:InvoiceLine[cac:Item/cac:ClassifiedTaxCategory[cbc:ID = 'S' and xs:decimal(cbc:Percent) = current()/cac:TaxCategory/xs:decimal(cbc:Percent)]]/xs:decimal(cbc:LineExtensionAmount))" +
				" + sum(/ubl:Invoice/cac:AllowanceCharge[cbc:ChargeIndicator = 'true'][cac:TaxCategory[cbc:ID = 'S' and xs:decimal(cbc:Percent) = current()/cac:TaxCategory/xs:decimal(cbc:Percent)]]/xs:decimal(cbc:Amount))" +
				" - sum(/ubl:Invoice/cac:AllowanceCharge[cbc:ChargeIndicator = 'false'][cac:TaxCategory[cbc:ID = 'S' and xs:decimal(cbc:Percent) = current()/cac:TaxCategory/xs:decimal(cbc:Percent)]]/xs:decimal(cbc:Amount))",
		)}`,
		text: 'The taxable amount of each standard rate = its lines − allowances + charges',
	},
	{
		id: 'BR-S-09',
		context: `${vatSubtotal}[cac:TaxCategory/cbc:ID = 'S']`,
		test: `abs(abs(xs:decimal(cbc:TaxAmount)) - ${cents('abs(xs:decimal(cbc:TaxableAmount)) * xs:decimal(cac:TaxCategory/cbc:Percent) div 100')}) < 1`,
		text: 'Standard rated VAT amount = taxable amount × rate',
	},
	{
		id: 'BR-S-10',
		context: `${vatSubtotal}/cac:TaxCategory[cbc:ID = 'S']`,
		test: 'not(cbc:TaxExemptionReason) and not(cbc:TaxExemptionReasonCode)',
		text: 'A standard rated VAT breakdown has no exemption reason',
	},
	// Decimals (BR-DEC-*): amounts have at most two.
	{ id: 'BR-DEC-09', context: totals, test: twoDecimals('cbc:LineExtensionAmount'), text: 'Sum of Invoice line net amount: at most 2 decimals' },
	{ id: 'BR-DEC-10', context: totals, test: twoDecimals('cbc:AllowanceTotalAmount'), text: 'Sum of allowances: at most 2 decimals' },
	{ id: 'BR-DEC-11', context: totals, test: twoDecimals('cbc:ChargeTotalAmount'), text: 'Sum of charges: at most 2 decimals' },
	{ id: 'BR-DEC-12', context: totals, test: twoDecimals('cbc:TaxExclusiveAmount'), text: 'Total without VAT: at most 2 decimals' },
	{ id: 'BR-DEC-13', context: `${invoice}/cac:TaxTotal`, test: twoDecimals('cbc:TaxAmount'), text: 'Total VAT amount: at most 2 decimals' },
	{ id: 'BR-DEC-14', context: totals, test: twoDecimals('cbc:TaxInclusiveAmount'), text: 'Total with VAT: at most 2 decimals' },
	{ id: 'BR-DEC-16', context: totals, test: twoDecimals('cbc:PrepaidAmount'), text: 'Paid amount: at most 2 decimals' },
	{ id: 'BR-DEC-17', context: totals, test: twoDecimals('cbc:PayableRoundingAmount'), text: 'Rounding amount: at most 2 decimals' },
	{ id: 'BR-DEC-18', context: totals, test: twoDecimals('cbc:PayableAmount'), text: 'Amount due: at most 2 decimals' },
	{ id: 'BR-DEC-19', context: `${invoice}/cac:TaxTotal/cac:TaxSubtotal`, test: twoDecimals('cbc:TaxableAmount'), text: 'VAT category taxable amount: at most 2 decimals' },
	{ id: 'BR-DEC-20', context: `${invoice}/cac:TaxTotal/cac:TaxSubtotal`, test: twoDecimals('cbc:TaxAmount'), text: 'VAT category tax amount: at most 2 decimals' },
	{ id: 'BR-DEC-23', context: `${invoice}/cac:InvoiceLine`, test: twoDecimals('cbc:LineExtensionAmount'), text: 'Invoice line net amount: at most 2 decimals' },
	// Code lists (BR-CL-*), for the codes an invoice of ours uses, and UBL's syntax rules on amounts.
	{ id: 'BR-CL-01', context: invoice, test: "cbc:InvoiceTypeCode = ('380', '326', '386', '389', '751', '875', '876', '877')", text: 'Invoice type code from UNTDID 1001' },
	{ id: 'BR-CL-04', context: invoice, test: "matches(cbc:DocumentCurrencyCode, '^[A-Z]{3}$')", text: 'Currency code from ISO 4217' },
	{ id: 'BR-CL-14', context: `${invoice}//cac:Country`, test: "matches(cbc:IdentificationCode, '^[A-Z]{2}$')", text: 'Country code from ISO 3166-1 alpha-2' },
	{ id: 'BR-CL-17', context: `${invoice}//cac:TaxCategory | ${invoice}//cac:ClassifiedTaxCategory`, test: "cbc:ID = ('S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M')", text: 'VAT category code from UNTDID 5305' },
	{ id: 'BR-CL-23', context: `${invoice}//cbc:InvoicedQuantity`, test: "@unitCode = ('MON', 'C62', 'H87', 'HUR', 'DAY', 'ANN')", text: 'Unit of measure from UN/ECE Recommendation 20' },
	{
		id: 'UBL-SR-currency',
		context: `${invoice}//*[ends-with(local-name(), 'Amount')]`,
		test: '@currencyID = /ubl:Invoice/cbc:DocumentCurrencyCode',
		text: 'Every amount in the invoice currency (currencyID)',
	},
]

export type En16931Report = { checked: string[]; failed: Array<{ id: string; text: string }> }

/** Parses the invoice (a malformed XML throws) and runs every rule; `failed` is empty for a valid one. */
export function checkEn16931(xml: string): En16931Report {
	const document = parseXmlDocument(xml)
	const failed: En16931Report['failed'] = []
	for (const rule of en16931Rules) {
		for (const node of evaluateXPathToNodes<Node>(rule.context, document, null, null, options)) {
			if (!evaluateXPathToBoolean(rule.test.replaceAll('current()', `(${pathTo(node as Element)})`), node, null, null, options)) {
				failed.push({ id: rule.id, text: rule.text })
				break
			}
		}
	}
	return { checked: en16931Rules.map((rule) => rule.id), failed }
}

/** The absolute path of an element ("/*[1]/*[12]/*[2]"): stands in for XSLT's current() in the rules. */
function pathTo(element: Element): string {
	const steps: string[] = []
	for (let node: Element | null = element; node; node = node.parentElement) {
		const index = node.parentElement ? node.parentElement.children.indexOf(node) + 1 : 1
		steps.unshift(`*[${index}]`)
	}
	return `/${steps.join('/')}`
}

/** One value of the invoice by XPath (the namespaces above), for the tests' own assertions. */
export function invoiceValue(xml: string | Document, path: string): string {
	return evaluateXPathToString(path, typeof xml === 'string' ? parseXmlDocument(xml) : xml, null, null, options)
}

/**
 * UBL 2.1's sequences (UBL-Invoice-2.1.xsd and the common components), for the elements an
 * invoice of ours writes: each element's children, in the order the schema requires, with the
 * ones that may repeat marked `*`. A child not listed, one out of order, or one repeated that
 * may not be, is a finding, as the XSD's validation would report it.
 */
const sequences: Record<string, string[]> = {
	Invoice: [
		'cbc:UBLVersionID', 'cbc:CustomizationID', 'cbc:ProfileID', 'cbc:ProfileExecutionID', 'cbc:ID', 'cbc:CopyIndicator', 'cbc:UUID',
		'cbc:IssueDate', 'cbc:IssueTime', 'cbc:DueDate', 'cbc:InvoiceTypeCode', 'cbc:Note*', 'cbc:TaxPointDate', 'cbc:DocumentCurrencyCode',
		'cbc:TaxCurrencyCode', 'cbc:PricingCurrencyCode', 'cbc:PaymentCurrencyCode', 'cbc:PaymentAlternativeCurrencyCode', 'cbc:AccountingCostCode',
		'cbc:AccountingCost', 'cbc:LineCountNumeric', 'cbc:BuyerReference', 'cac:InvoicePeriod*', 'cac:OrderReference', 'cac:BillingReference*',
		'cac:DespatchDocumentReference*', 'cac:ReceiptDocumentReference*', 'cac:StatementDocumentReference*', 'cac:OriginatorDocumentReference*',
		'cac:ContractDocumentReference*', 'cac:AdditionalDocumentReference*', 'cac:ProjectReference*', 'cac:Signature*', 'cac:AccountingSupplierParty',
		'cac:AccountingCustomerParty', 'cac:PayeeParty', 'cac:BuyerCustomerParty', 'cac:SellerSupplierParty', 'cac:TaxRepresentativeParty',
		'cac:Delivery*', 'cac:DeliveryTerms', 'cac:PaymentMeans*', 'cac:PaymentTerms*', 'cac:PrepaidPayment*', 'cac:AllowanceCharge*',
		'cac:TaxExchangeRate', 'cac:PricingExchangeRate', 'cac:PaymentExchangeRate', 'cac:PaymentAlternativeExchangeRate', 'cac:TaxTotal*',
		'cac:WithholdingTaxTotal*', 'cac:LegalMonetaryTotal', 'cac:InvoiceLine*',
	],
	InvoicePeriod: ['cbc:StartDate', 'cbc:StartTime', 'cbc:EndDate', 'cbc:EndTime', 'cbc:DurationMeasure', 'cbc:DescriptionCode*', 'cbc:Description*'],
	AccountingSupplierParty: ['cbc:CustomerAssignedAccountID', 'cbc:AdditionalAccountID*', 'cbc:DataSendingCapability', 'cac:Party', 'cac:DespatchContact', 'cac:AccountingContact', 'cac:SellerContact'],
	AccountingCustomerParty: ['cbc:CustomerAssignedAccountID', 'cbc:SupplierAssignedAccountID', 'cbc:AdditionalAccountID*', 'cac:Party', 'cac:DeliveryContact', 'cac:AccountingContact', 'cac:BuyerContact'],
	Party: [
		'cbc:MarkCareIndicator', 'cbc:MarkAttentionIndicator', 'cbc:WebsiteURI', 'cbc:LogoReferenceID', 'cbc:EndpointID', 'cbc:IndustryClassificationCode',
		'cac:PartyIdentification*', 'cac:PartyName*', 'cac:Language', 'cac:PostalAddress', 'cac:PhysicalLocation', 'cac:PartyTaxScheme*',
		'cac:PartyLegalEntity*', 'cac:Contact', 'cac:Person*', 'cac:AgentParty', 'cac:ServiceProviderParty*', 'cac:PowerOfAttorney*', 'cac:FinancialAccount',
	],
	PartyName: ['cbc:Name'],
	PostalAddress: [
		'cbc:ID', 'cbc:AddressTypeCode', 'cbc:AddressFormatCode', 'cbc:Postbox', 'cbc:Floor', 'cbc:Room', 'cbc:StreetName', 'cbc:AdditionalStreetName',
		'cbc:BlockName', 'cbc:BuildingName', 'cbc:BuildingNumber', 'cbc:InhouseMail', 'cbc:Department', 'cbc:MarkAttention', 'cbc:MarkCare',
		'cbc:PlotIdentification', 'cbc:CitySubdivisionName', 'cbc:CityName', 'cbc:PostalZone', 'cbc:CountrySubentity', 'cbc:CountrySubentityCode',
		'cbc:Region', 'cbc:District', 'cbc:TimezoneOffset', 'cac:AddressLine*', 'cac:Country', 'cac:LocationCoordinate*',
	],
	Country: ['cbc:IdentificationCode', 'cbc:Name'],
	PartyTaxScheme: ['cbc:RegistrationName', 'cbc:CompanyID', 'cbc:TaxLevelCode', 'cbc:ExemptionReasonCode', 'cbc:ExemptionReason*', 'cac:RegistrationAddress', 'cac:TaxScheme'],
	PartyLegalEntity: [
		'cbc:RegistrationName', 'cbc:CompanyID', 'cbc:RegistrationDate', 'cbc:RegistrationExpirationDate', 'cbc:CompanyLegalFormCode', 'cbc:CompanyLegalForm',
		'cbc:SoleProprietorshipIndicator', 'cbc:CompanyLiquidationStatusCode', 'cbc:CorporateStockAmount', 'cbc:FullyPaidSharesIndicator',
		'cac:RegistrationAddress', 'cac:CorporateRegistrationScheme', 'cac:HeadOfficeParty', 'cac:ShareholderParty*',
	],
	Contact: ['cbc:ID', 'cbc:Name', 'cbc:Telephone', 'cbc:Telefax', 'cbc:ElectronicMail', 'cbc:Note*', 'cac:OtherCommunication*'],
	TaxScheme: ['cbc:ID', 'cbc:Name', 'cbc:TaxTypeCode', 'cbc:CurrencyCode', 'cac:JurisdictionRegionAddress*'],
	PaymentTerms: [
		'cbc:ID', 'cbc:PaymentMeansID*', 'cbc:PrepaidPaymentReferenceID', 'cbc:Note*', 'cbc:ReferenceEventCode', 'cbc:SettlementDiscountPercent',
		'cbc:PenaltySurchargePercent', 'cbc:PaymentPercent', 'cbc:Amount', 'cbc:SettlementDiscountAmount', 'cbc:PenaltyAmount', 'cbc:PaymentTermsDetailsURI',
		'cbc:PaymentDueDate', 'cbc:InstallmentDueDate', 'cbc:InvoicingPartyReference', 'cac:SettlementPeriod', 'cac:PenaltyPeriod', 'cac:ExchangeRate', 'cac:ValidityPeriod',
	],
	TaxTotal: ['cbc:TaxAmount', 'cbc:RoundingAmount', 'cbc:TaxEvidenceIndicator', 'cbc:TaxIncludedIndicator', 'cac:TaxSubtotal*'],
	TaxSubtotal: [
		'cbc:TaxableAmount', 'cbc:TaxAmount', 'cbc:CalculationSequenceNumeric', 'cbc:TransactionCurrencyTaxAmount', 'cbc:Percent', 'cbc:BaseUnitMeasure',
		'cbc:PerUnitAmount', 'cbc:TierRange', 'cbc:TierRatePercent', 'cac:TaxCategory',
	],
	TaxCategory: [
		'cbc:ID', 'cbc:Name', 'cbc:Percent', 'cbc:BaseUnitMeasure', 'cbc:PerUnitAmount', 'cbc:TaxExemptionReasonCode', 'cbc:TaxExemptionReason*',
		'cbc:TierRange', 'cbc:TierRatePercent', 'cac:TaxScheme',
	],
	LegalMonetaryTotal: [
		'cbc:LineExtensionAmount', 'cbc:TaxExclusiveAmount', 'cbc:TaxInclusiveAmount', 'cbc:AllowanceTotalAmount', 'cbc:ChargeTotalAmount',
		'cbc:PrepaidAmount', 'cbc:PayableRoundingAmount', 'cbc:PayableAmount', 'cbc:PayableAlternativeAmount',
	],
	InvoiceLine: [
		'cbc:ID', 'cbc:UUID', 'cbc:Note*', 'cbc:InvoicedQuantity', 'cbc:LineExtensionAmount', 'cbc:TaxPointDate', 'cbc:AccountingCostCode',
		'cbc:AccountingCost', 'cbc:PaymentPurposeCode', 'cbc:FreeOfChargeIndicator', 'cac:InvoicePeriod*', 'cac:OrderLineReference*',
		'cac:DespatchLineReference*', 'cac:ReceiptLineReference*', 'cac:BillingReference*', 'cac:DocumentReference*', 'cac:PricingReference',
		'cac:OriginatorParty', 'cac:Delivery*', 'cac:PaymentTerms*', 'cac:AllowanceCharge*', 'cac:TaxTotal*', 'cac:WithholdingTaxTotal*', 'cac:Item',
		'cac:Price', 'cac:DeliveryTerms', 'cac:SubInvoiceLine*', 'cac:ItemPriceExtension',
	],
	Item: [
		'cbc:Description*', 'cbc:PackQuantity', 'cbc:PackSizeNumeric', 'cbc:CatalogueIndicator', 'cbc:Name', 'cbc:HazardousRiskIndicator',
		'cbc:AdditionalInformation*', 'cbc:Keyword*', 'cbc:BrandName*', 'cbc:ModelName*', 'cac:BuyersItemIdentification', 'cac:SellersItemIdentification',
		'cac:ManufacturersItemIdentification*', 'cac:StandardItemIdentification', 'cac:CatalogueItemIdentification', 'cac:AdditionalItemIdentification*',
		'cac:CatalogueDocumentReference', 'cac:ItemSpecificationDocumentReference*', 'cac:OriginCountry', 'cac:CommodityClassification*',
		'cac:TransactionConditions*', 'cac:HazardousItem*', 'cac:ClassifiedTaxCategory*', 'cac:AdditionalItemProperty*', 'cac:ManufacturerParty*',
		'cac:InformationContentProviderParty', 'cac:OriginAddress*', 'cac:ItemInstance*', 'cac:Certificate*', 'cac:Dimension*',
	],
	ClassifiedTaxCategory: [
		'cbc:ID', 'cbc:Name', 'cbc:Percent', 'cbc:BaseUnitMeasure', 'cbc:PerUnitAmount', 'cbc:TaxExemptionReasonCode', 'cbc:TaxExemptionReason*',
		'cbc:TierRange', 'cbc:TierRatePercent', 'cac:TaxScheme',
	],
	Price: ['cbc:PriceAmount', 'cbc:BaseQuantity', 'cbc:PriceChangeReason*', 'cbc:PriceTypeCode', 'cbc:PriceType', 'cbc:OrderableUnitFactorRate', 'cac:ValidityPeriod*', 'cac:PriceList', 'cac:AllowanceCharge*', 'cac:PricingExchangeRate'],
}

/** Findings of the UBL 2.1 structure check; empty when every element written is where the schema has it. */
export function checkUblStructure(xml: string): string[] {
	const document = parseXmlDocument(xml)
	const root = document.documentElement
	const findings: string[] = []
	if (!root || root.namespaceURI !== namespaces.ubl || root.localName !== 'Invoice') return ['the root is not a UBL 2.1 Invoice']
	const prefixOf = (element: Element) => (element.namespaceURI === namespaces.cac ? 'cac' : element.namespaceURI === namespaces.cbc ? 'cbc' : null)
	const visit = (element: Element, path: string) => {
		const sequence = sequences[element.localName]
		const children = element.children
		if (!sequence) {
			// A basic component holds text; an aggregate we do not write is a finding.
			if (children.length) findings.push(`${path}: children not expected`)
			return
		}
		const names = sequence.map((entry) => entry.replace('*', ''))
		let position = 0
		let previous: string | null = null
		for (const child of children) {
			const name = `${prefixOf(child) ?? '?'}:${child.localName}`
			const at = names.indexOf(name, position)
			if (at === -1) {
				findings.push(`${path}/${name}: ${names.includes(name) ? 'out of order' : 'not allowed here'}`)
				continue
			}
			if (name === previous && !sequence[at]!.endsWith('*')) findings.push(`${path}/${name}: only once`)
			position = at
			previous = name
			visit(child, `${path}/${name}`)
		}
	}
	visit(root, '/Invoice')
	return findings
}
