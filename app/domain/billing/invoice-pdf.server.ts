import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib'
import { type InvoiceParty } from '~/db/schema'
import { type Language, intlLocales } from '~/i18n/config'
import { getFixedT } from '~/i18n/i18n.server'
import { formatMoney } from '~/utils/money'
import { embedUnicodeFonts, wrapText } from '~/utils/pdf-fonts.server'
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
 * The invoice as an A4 PDF (pdf-lib, pure JavaScript) in the buyer's language: Estonian, or the
 * Estonian label with the buyer's beside it ("Arve / Счёт"), as the seller keeps its books in
 * Estonian (decisions 0061, 0105). Every letter prints, names in Cyrillic too: DejaVu Sans is
 * embedded (utils/pdf-fonts.server.ts, decision 0103).
 */
export async function renderInvoicePdf(invoice: InvoiceDocument, language: Language): Promise<Uint8Array> {
	const et = getFixedT('et', 'billing')
	const theirs = getFixedT(language, 'billing')
	const label = (key: string, params?: Record<string, unknown>) => {
		const [own, buyer] = [et(`invoicePdf.${key}`, params), theirs(`invoicePdf.${key}`, params)]
		return own === buyer ? own : `${own} / ${buyer}`
	}
	const day = (date: Date) =>
		new Intl.DateTimeFormat(intlLocales[language], { timeZone: TIME_ZONE, day: '2-digit', month: '2-digit', year: 'numeric' }).format(date)
	const money = (cents: number) => formatMoney(cents, language, invoice.currency)

	const pdf = await PDFDocument.create()
	pdf.setTitle(`${label('title')} ${invoice.number}`)
	pdf.setAuthor(invoice.seller.name)
	pdf.setCreationDate(invoice.issuedAt)
	pdf.setLanguage(language)
	const page = pdf.addPage([595.28, 841.89])
	const { regular, bold } = await embedUnicodeFonts(pdf)
	const write = (text: string, x: number, y: number, options: { font?: PDFFont; size?: number; right?: boolean } = {}) =>
		drawText(page, text.normalize('NFC'), x, y, options.font ?? regular, options.size ?? 10, options.right)

	const left = 50
	const right = 545
	write(invoice.seller.name, left, 790, { font: bold, size: 16 })
	write(`${label('title').toUpperCase()}  ${theirs('invoicePdf.number', { number: invoice.number })}`, right, 790, { font: bold, size: 14, right: true })
	write(`${label('date')}: ${day(invoice.issuedAt)}`, right, 772, { right: true })

	party(write, label('seller'), invoice.seller, { x: left, width: 250 }, 730, { regular, bold }, label)
	party(write, label('buyer'), invoice.buyer, { x: 310, width: right - 310 }, 730, { regular, bold }, label)

	const tableTop = 600
	page.drawLine({ start: { x: left, y: tableTop + 14 }, end: { x: right, y: tableTop + 14 }, thickness: 1, color: rgb(0.6, 0.6, 0.6) })
	write(label('service'), left, tableTop, { font: bold })
	write(label('period'), 260, tableTop, { font: bold })
	write(label('amount'), right, tableTop, { font: bold, right: true })
	page.drawLine({ start: { x: left, y: tableTop - 6 }, end: { x: right, y: tableTop - 6 }, thickness: 0.5, color: rgb(0.6, 0.6, 0.6) })
	write(invoice.packageName, left, tableTop - 24)
	write(`${day(invoice.periodStart)} – ${day(invoice.periodEnd)}`, 260, tableTop - 24)
	write(money(invoice.netCents), right, tableTop - 24, { right: true })

	const rate = (invoice.vatRateBasisPoints / 100).toFixed(invoice.vatRateBasisPoints % 100 === 0 ? 0 : 2)
	const totals: Array<[string, string, boolean]> = [
		[label('net'), money(invoice.netCents), false],
		[label('vat', { rate }), money(invoice.vatCents), false],
		[label('total'), money(invoice.totalCents), true],
	]
	totals.forEach(([text, value, strong], index) => {
		const y = tableTop - 70 - index * 18
		write(text, 300, y, { font: strong ? bold : regular })
		write(value, right, y, { font: strong ? bold : regular, right: true })
	})
	write(label('paid'), left, tableTop - 140, { font: bold })
	write(`${invoice.seller.name} · ${invoice.seller.email}`, left, 60, { size: 8 })
	return pdf.save()
}

type Write = (text: string, x: number, y: number, options?: { font?: PDFFont; size?: number; right?: boolean }) => void

/** A party's block, each line wrapped at spaces to its column (a long address takes two lines). */
function party(
	write: Write,
	title: string,
	who: InvoiceParty,
	column: { x: number; width: number },
	y: number,
	fonts: { regular: PDFFont; bold: PDFFont },
	label: (key: string) => string,
) {
	const lines = [
		who.name,
		who.companyId ? `${label('regCode')}: ${who.companyId}` : '',
		who.vatNumber ? `${label('vatNumber')}: ${who.vatNumber}` : '',
		who.address,
		who.email,
	]
		.filter(Boolean)
		.flatMap((line) => wrapText(line.normalize('NFC'), fonts.regular, 10, column.width))
	write(title, column.x, y, { font: fonts.bold })
	lines.forEach((line, index) => write(line, column.x, y - 16 - index * 14))
}

function drawText(page: PDFPage, text: string, x: number, y: number, font: PDFFont, size: number, alignRight = false) {
	const width = font.widthOfTextAtSize(text, size)
	page.drawText(text, { x: alignRight ? x - width : x, y, size, font })
}
