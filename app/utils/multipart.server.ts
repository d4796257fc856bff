import { unstable_parseMultipartFormData } from '@remix-run/node'
import { message } from './messages'
import { MAX_UPLOAD_BYTES, prepareUpload, UploadRejected, type PreparedUpload, type UploadPurpose } from './storage.server'

/** How a file over the size limit is marked, so the form can say so next to the field. */
const TOO_LARGE_TYPE = 'application/x-autohub-too-large'
const MAX_TEXT_FIELD_BYTES = 64 * 1024
const MAX_PARTS = 60

/**
 * A form with files, read whole: text fields as text, files in memory up to the upload limit.
 * A larger file is drained and marked rather than refused outright, so every other field (and
 * the user's input) survives to the answer. A plain form is read as usual.
 */
export async function readFormWithFiles(request: Request): Promise<FormData> {
	if (!(request.headers.get('Content-Type') ?? '').startsWith('multipart/form-data')) return request.formData()
	let parts = 0
	return unstable_parseMultipartFormData(request, async ({ data, filename, contentType }) => {
		if (++parts > MAX_PARTS) throw new Response('Too many fields', { status: 413 })
		const isFile = filename !== undefined
		const limit = isFile ? MAX_UPLOAD_BYTES : MAX_TEXT_FIELD_BYTES
		const chunks: Uint8Array[] = []
		let size = 0
		for await (const chunk of data) {
			size += chunk.byteLength
			if (size <= limit) chunks.push(chunk)
		}
		if (!isFile) {
			if (size > limit) throw new Response('Field too large', { status: 413 })
			return new TextDecoder().decode(Buffer.concat(chunks))
		}
		// An empty file input sends a part without a name or bytes: no file chosen.
		if (!filename && size === 0) return undefined
		if (size > limit) return new File([], filename, { type: TOO_LARGE_TYPE })
		return new File([Buffer.concat(chunks)], filename, { type: contentType })
	})
}

/**
 * The files of one field, checked by content for their purpose, at most `max` of them.
 * Returns the prepared files, or the message for the field when one is refused.
 */
export async function readUploads(
	formData: FormData,
	field: string,
	purpose: UploadPurpose,
	max: number,
): Promise<{ files: PreparedUpload[]; error: null } | { files: []; error: string }> {
	const files = formData.getAll(field).filter((value): value is File => value instanceof File && (value.size > 0 || value.type === TOO_LARGE_TYPE))
	if (files.length > max) return { files: [], error: message('common:upload.tooMany', { max }) }
	try {
		const prepared = []
		for (const file of files) {
			if (file.type === TOO_LARGE_TYPE) throw new UploadRejected('tooLarge')
			prepared.push(await prepareUpload({ bytes: new Uint8Array(await file.arrayBuffer()), purpose, originalName: file.name }))
		}
		return { files: prepared, error: null }
	} catch (error) {
		if (error instanceof UploadRejected) return { files: [], error: `common:upload.${error.reason}` }
		throw error
	}
}
