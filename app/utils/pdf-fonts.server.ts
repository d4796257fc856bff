import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import fontkit from '@pdf-lib/fontkit'
import { type PDFDocument, type PDFFont } from 'pdf-lib'

/**
 * A Unicode font for the PDFs the portal makes (DejaVu Sans from the `dejavu-fonts-ttf` package,
 * through fontkit), so Estonian and Russian letters print as written instead of "?" as with the
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
