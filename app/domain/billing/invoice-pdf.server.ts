import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib'
import { type InvoiceParty } from '~/db/schema'
import { intlLocales } from '~/i18n/config'
import { formatMoney } from '~/utils/money'
import { TIME_ZONE } from '~/utils/time'

export type InvoiceDocument = {
	number: number
	issuedAt: Date
	seller: InvoiceParty
	buyer: InvoiceParty
	packageName: string
	periodStart: Date
	periodEnd: Date
	netCents: number
	vatRateBasisPoints: number
	vatCents: number
	totalCents: number
	currency: string
}

/**
 * The invoice as an A4 PDF (pdf-lib, pure JavaScript). Labels are Estonian with English beside
 * them (docs/decisions/0061-invoices.md); the standard PDF fonts cover Latin letters only, so a
 * character they lack (Cyrillic, for one) is replaced by "?" rather than failing the payment.
 */
export async function renderInvoicePdf(invoice: InvoiceDocument): Promise<Uint8Array> {
	const pdf = await PDFDocument.create()
	pdf.setTitle(`Arve / Invoice ${invoice.number}`)
	pdf.setAuthor(invoice.seller.name)
	pdf.setCreationDate(invoice.issuedAt)
	const page = pdf.addPage([595.28, 841.89])
	const regular = await pdf.embedFont(StandardFonts.Helvetica)
	const bold = await pdf.embedFont(StandardFonts.HelveticaBold)
	const write = (text: string, x: number, y: number, options: { font?: PDFFont; size?: number; right?: boolean } = {}) =>
		drawText(page, safe(text, options.font ?? regular), x, y, options.font ?? regular, options.size ?? 10, options.right)

	const left = 50
	const right = 545
	write(invoice.seller.name, left, 790, { font: bold, size: 16 })
	write(`ARVE / INVOICE  Nr ${invoice.number}`, right, 790, { font: bold, size: 14, right: true })
	write(`Kuupäev / Date: ${day(invoice.issuedAt)}`, right, 772, { right: true })

	party(write, 'Müüja / Seller', invoice.seller, left, 730, bold)
	party(write, 'Ostja / Buyer', invoice.buyer, 310, 730, bold)

	const tableTop = 600
	page.drawLine({ start: { x: left, y: tableTop + 14 }, end: { x: right, y: tableTop + 14 }, thickness: 1, color: rgb(0.6, 0.6, 0.6) })
	write('Teenus / Service', left, tableTop, { font: bold })
	write('Periood / Period', 260, tableTop, { font: bold })
	write('Summa / Amount', right, tableTop, { font: bold, right: true })
	page.drawLine({ start: { x: left, y: tableTop - 6 }, end: { x: right, y: tableTop - 6 }, thickness: 0.5, color: rgb(0.6, 0.6, 0.6) })
	write(invoice.packageName, left, tableTop - 24)
	write(`${day(invoice.periodStart)} – ${day(invoice.periodEnd)}`, 260, tableTop - 24)
	write(money(invoice.netCents, invoice.currency), right, tableTop - 24, { right: true })

	const rate = (invoice.vatRateBasisPoints / 100).toFixed(invoice.vatRateBasisPoints % 100 === 0 ? 0 : 2)
	const totals: Array<[string, string, boolean]> = [
		['Summa km-ta / Net', money(invoice.netCents, invoice.currency), false],
		[`Käibemaks / VAT ${rate}%`, money(invoice.vatCents, invoice.currency), false],
		['Kokku / Total', money(invoice.totalCents, invoice.currency), true],
	]
	totals.forEach(([label, value, strong], index) => {
		const y = tableTop - 70 - index * 18
		write(label, 360, y, { font: strong ? bold : regular })
		write(value, right, y, { font: strong ? bold : regular, right: true })
	})
	write('Tasutud / Paid', left, tableTop - 140, { font: bold })
	write(`${invoice.seller.name} · ${invoice.seller.email}`, left, 60, { size: 8 })
	return pdf.save()
}

type Write = (text: string, x: number, y: number, options?: { font?: PDFFont; size?: number; right?: boolean }) => void

function party(write: Write, title: string, who: InvoiceParty, x: number, y: number, bold: PDFFont) {
	const lines = [
		who.name,
		who.companyId ? `Reg. kood / Reg. code: ${who.companyId}` : '',
		who.vatNumber ? `KMKR / VAT no: ${who.vatNumber}` : '',
		who.address,
		who.email,
	].filter(Boolean)
	write(title, x, y, { font: bold })
	lines.forEach((line, index) => write(line, x, y - 16 - index * 14))
}

function drawText(page: PDFPage, text: string, x: number, y: number, font: PDFFont, size: number, alignRight = false) {
	const width = font.widthOfTextAtSize(text, size)
	page.drawText(text, { x: alignRight ? x - width : x, y, size, font })
}

/** Keeps the characters the font can encode. */
function safe(text: string, font: PDFFont) {
	const supported = new Set(font.getCharacterSet())
	return Array.from(text.normalize('NFC'))
		.map((char) => (supported.has(char.codePointAt(0)!) ? char : '?'))
		.join('')
}

const dayFormat = new Intl.DateTimeFormat(intlLocales.et, { timeZone: TIME_ZONE, day: '2-digit', month: '2-digit', year: 'numeric' })
function day(date: Date) {
	return dayFormat.format(date)
}

/** Amounts as the Estonian labels read them: "35,96 €". */
function money(cents: number, currency: string) {
	return formatMoney(cents, 'et', currency)
}
