import { PDFDocument, type PDFFont, type PDFPage, rgb } from 'pdf-lib'
import { type Language } from '~/i18n/config'
import { getFixedT } from '~/i18n/i18n.server'
import { formatDate, formatMoney } from '~/utils/format'
import { embedUnicodeFonts, wrapText } from '~/utils/pdf-fonts.server'
import { tallinnDay } from '~/utils/time'
import { type HistoryEntry, type Warranty } from './passport'
import { distanceText, type OdometerUnit } from './vehicle-kinds'

/**
 * A vehicle's service history as an A4 PDF (issue 20), for selling the car: the vehicle, every
 * job done through the marketplace and every record of work done elsewhere, newest first, with
 * the day, workshop, mileage, the work and the price, and the warranties still running. In the
 * owner's language, with an embedded Unicode font (Estonian and Russian letters as written).
 */
export type HistoryDocument = {
	/** Its readings in km, shown in its odometer unit (decision 0122). */
	vehicle: { name: string; registrationNumber: string; vin: string | null; year: number | null; mileage: number; odometerUnit: OdometerUnit }
	history: HistoryEntry[]
	warranties: Warranty[]
	language: Language
	appName: string
	now?: Date
}

const PAGE: [number, number] = [595.28, 841.89]
const MARGIN = 50
const WIDTH = PAGE[0] - 2 * MARGIN
const GREY = rgb(0.35, 0.4, 0.47)

export async function renderHistoryPdf(document: HistoryDocument): Promise<Uint8Array> {
	const { language, vehicle } = document
	const t = getFixedT(language, 'customer')
	const pdf = await PDFDocument.create()
	const fonts = await embedUnicodeFonts(pdf)
	const title = t('passport.pdf.title', { vehicle: `${vehicle.name} · ${vehicle.registrationNumber}` })
	pdf.setTitle(title)
	pdf.setCreator(document.appName)
	pdf.setLanguage(language)
	pdf.setCreationDate(document.now ?? new Date())

	const writer = new Writer(pdf, fonts.regular)
	writer.text(title, { font: fonts.bold, size: 16 })
	writer.text(
		[
			vehicle.vin ? `VIN ${vehicle.vin}` : null,
			vehicle.year ? t('passport.pdf.year', { year: vehicle.year }) : null,
			t('passport.pdf.mileageNow', { distance: distanceText(t, vehicle.mileage, vehicle.odometerUnit) }),
		]
			.filter(Boolean)
			.join(' · '),
		{ color: GREY },
	)
	writer.text(t('passport.pdf.made', { app: document.appName, date: formatDate(tallinnDay(document.now), language) }), { size: 9, color: GREY })
	writer.gap(14)

	writer.text(t('passport.history'), { font: fonts.bold, size: 13 })
	if (!document.history.length) writer.text(t('passport.pdf.noHistory'))
	for (const entry of document.history) {
		writer.keepTogether(60)
		writer.rule()
		writer.text(entry.title, { font: fonts.bold })
		writer.text(
			[
				formatDate(entry.on, language),
				entry.workshopName || null,
				entry.mileage !== null ? distanceText(t, entry.mileage, vehicle.odometerUnit) : null,
				entry.source === 'record' ? t('passport.pdf.elsewhere') : t('passport.pdf.throughUs', { app: document.appName }),
			]
				.filter(Boolean)
				.join(' · '),
			{ size: 9, color: GREY },
		)
		for (const line of entry.lines) writer.text(`• ${line.description}${line.reference ? ` (${line.reference})` : ''}`, { indent: 10, size: 9 })
		if (entry.paidCents !== null) writer.text(t('passport.pdf.paid', { price: formatMoney(entry.paidCents, language) }), { size: 9 })
	}

	const running = document.warranties.filter((warranty) => [warranty.work, warranty.parts].some((part) => part && part.state !== 'expired'))
	if (running.length) {
		writer.gap(14)
		writer.keepTogether(60)
		writer.text(t('passport.warranty'), { font: fonts.bold, size: 13 })
		for (const warranty of running) {
			writer.rule()
			writer.text(`${warranty.title} · ${warranty.workshopName}`, { font: fonts.bold })
			if (warranty.work && warranty.work.state !== 'expired')
				writer.text(t('passport.pdf.workUntil', { distance: distanceText(t, warranty.work.untilKm, vehicle.odometerUnit) }), { size: 9 })
			if (warranty.parts && warranty.parts.state !== 'expired')
				writer.text(t('passport.pdf.partsUntil', { date: formatDate(warranty.parts.until, language) }), { size: 9 })
		}
	}
	writer.footer((page, count) => t('passport.pdf.page', { page, count }))
	return pdf.save()
}

type TextOptions = { font?: PDFFont; size?: number; indent?: number; color?: ReturnType<typeof rgb> }

/** Writes lines top to bottom, wrapping at the page's width and starting a new page at its foot. */
class Writer {
	private page: PDFPage
	private y = PAGE[1] - MARGIN

	constructor(
		private pdf: PDFDocument,
		private regular: PDFFont,
	) {
		this.page = pdf.addPage(PAGE)
	}

	text(text: string, options: TextOptions = {}) {
		const font = options.font ?? this.regular
		const size = options.size ?? 10
		const indent = options.indent ?? 0
		for (const line of wrapText(text.normalize('NFC'), font, size, WIDTH - indent)) {
			this.keepTogether(size * 1.45)
			this.page.drawText(line, { x: MARGIN + indent, y: this.y - size, size, font, color: options.color ?? rgb(0.08, 0.1, 0.14) })
			this.y -= size * 1.45
		}
	}

	gap(points: number) {
		this.y -= points
	}

	rule() {
		this.keepTogether(10)
		this.page.drawLine({ start: { x: MARGIN, y: this.y - 3 }, end: { x: MARGIN + WIDTH, y: this.y - 3 }, thickness: 0.5, color: rgb(0.8, 0.82, 0.86) })
		this.y -= 8
	}

	footer(label: (page: number, count: number) => string) {
		const pages = this.pdf.getPages()
		pages.forEach((page, index) => {
			page.drawText(label(index + 1, pages.length), { x: MARGIN, y: MARGIN / 2, size: 8, font: this.regular, color: GREY })
		})
	}

	/** Starts a new page unless `points` fit on this one (a heading is not left alone at a page's foot). */
	keepTogether(points: number) {
		if (this.y - points >= MARGIN) return
		this.page = this.pdf.addPage(PAGE)
		this.y = PAGE[1] - MARGIN
	}
}
