import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import fontkit from '@pdf-lib/fontkit'
import { type PDFDocument, type PDFFont } from 'pdf-lib'

/**
 * A Unicode font for the PDFs the portal makes (DejaVu Sans from the `dejavu-fonts-ttf` package,
 * through fontkit), and text wrapped to a width in it, so Estonian and Russian letters print as written instead of "?" as with the
 * standard PDF fonts. Subset: a document carries only the glyphs it uses (tens of KB, not 700).
 * The files are read once per process.
 */
const require = createRequire(import.meta.url)
let files: Promise<{ regular: Buffer; bold: Buffer }> | undefined

function fontFiles() {
	files ??= Promise.all([
		readFile(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')),
		readFile(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')),
	]).then(([regular, bold]) => ({ regular, bold }))
	return files
}

export type PdfFonts = { regular: PDFFont; bold: PDFFont }

/** Embeds the regular and bold faces in `pdf`. */
export async function embedUnicodeFonts(pdf: PDFDocument): Promise<PdfFonts> {
	pdf.registerFontkit(fontkit)
	const { regular, bold } = await fontFiles()
	const [regularFont, boldFont] = await Promise.all([pdf.embedFont(regular, { subset: true }), pdf.embedFont(bold, { subset: true })])
	return { regular: regularFont, bold: boldFont }
}

/** The text in lines no wider than `width`, broken at spaces (a word longer than a line is cut). */
export function wrapText(text: string, font: PDFFont, size: number, width: number): string[] {
	const lines: string[] = []
	for (const paragraph of text.split('\n')) {
		let line = ''
		for (const word of paragraph.split(/\s+/).filter(Boolean)) {
			const candidate = line ? `${line} ${word}` : word
			if (font.widthOfTextAtSize(candidate, size) <= width) {
				line = candidate
				continue
			}
			if (line) lines.push(line)
			line = word
			while (font.widthOfTextAtSize(line, size) > width && line.length > 1) {
				let cut = line.length - 1
				while (cut > 1 && font.widthOfTextAtSize(line.slice(0, cut), size) > width) cut--
				lines.push(line.slice(0, cut))
				line = line.slice(cut)
			}
		}
		lines.push(line)
	}
	return lines
}
