import { openAsBlob } from 'node:fs'
import { Readable } from 'node:stream'
import { type ReadableStream as NodeReadableStream } from 'node:stream/web'
import busboy from 'busboy'
import { BadRequest } from '~/utils/failures.server'
import { discardStaged, newStagingKey, stagedPath, writeStaged } from '~/uploads/file-store.server'
import { MAX_BODY_BYTES } from '~/utils/http'
import { message } from '~/utils/messages'
import { decodeId, encodeId } from '~/utils/public-id'
import { heldFieldName, type HeldFile } from '~/uploads/upload-url'
import {
	findHeldUploads,
	holdUpload,
	MAX_FORM_BYTES,
	MAX_UPLOAD_BYTES,
	prepareUpload,
	rejectionMessage,
	UploadRejected,
	type FormUpload,
	type PreparedUpload,
	type Upload,
	type UploadPurpose,
} from '~/uploads/storage.server'

/** Files in one form: the workshop profile's logo, eight photos and warranty PDF, and room to spare. */
export const MAX_FILES_PER_FORM = 12
/** The whole body of any other form or JSON call (the longest text, a content page, is 100,000 characters). */
export const MAX_PLAIN_BODY_BYTES = 2 * 1024 * 1024
const MAX_FIELDS = 500
/** One field: a content page's text in Cyrillic is up to 400 KB of UTF-8. */
const MAX_FIELD_BYTES = 1024 * 1024
const MAX_FIELD_NAME_BYTES = 200

/**
 * `bodyBytes`: the most of the body read (past it, a 413 for the whole form); `fileBytes`: what the
 * form's files may bring in all (less than MAX_FILES_PER_FORM × MAX_UPLOAD_BYTES on purpose).
 */
type FormLimits = { bodyBytes: number; fileBytes: number; files: number }
// A form with files reads on past what it keeps (files over their limits are dropped unstaged), so
// it can answer with the form and the field's error rather than a bare 413 (docs/decisions/0115).
const WITH_FILES: FormLimits = { bodyBytes: MAX_BODY_BYTES, fileBytes: MAX_FORM_BYTES, files: MAX_FILES_PER_FORM }
const WITHOUT_FILES: FormLimits = { bodyBytes: MAX_PLAIN_BODY_BYTES, fileBytes: 0, files: 0 }

/** How a file over the size limit is marked, so the form can say so next to the field. */
const TOO_LARGE_TYPE = 'application/x-autohub-too-large'
/** How a file past the form's total (MAX_FORM_BYTES) is marked, likewise. */
const OVER_FORM_TYPE = 'application/x-autohub-over-form-limit'

/** A file of the form, on disk in the staging area while the request is handled. */
class StagedFile extends File {
	constructor(
		blob: Blob,
		name: string,
		type: string,
		readonly stagedKey: string,
	) {
		super([blob], name, { type })
	}
}

/** The staged files of each form read here, deleted by discardStagedFiles. */
const stagedByForm = new WeakMap<FormData, Set<string>>()

/**
 * Reads the form in `work`'s hands and then deletes every staged file that no committed
 * transaction moved into the store (a refused form, a failed save): nothing is left behind.
 */
export async function withFormFiles<T>(request: Request, work: (formData: FormData) => Promise<T>): Promise<T> {
	const formData = await readFormWithFiles(request)
	try {
		return await work(formData)
	} finally {
		await discardStagedFiles(formData)
	}
}

/**
 * A form with files, streamed with busboy: text fields as text, each file to a staging file on
 * disk (never whole in memory). A file over MAX_UPLOAD_BYTES, and a file that takes the form's
 * files past MAX_FORM_BYTES, is dropped and marked rather than refused outright, so every other
 * field (and the user's input) survives to the answer, which names the field. Too many files or
 * fields, or a body over MAX_BODY_BYTES, is a 413; a broken body a 400; a body that is no form a
 * 415. A urlencoded form is read with the same limits.
 */
export async function readFormWithFiles(request: Request, limits: FormLimits = WITH_FILES): Promise<FormData> {
	const contentType = request.headers.get('Content-Type') ?? ''
	if (!/^(multipart\/form-data|application\/x-www-form-urlencoded)\s*(;|$)/i.test(contentType)) throw new BadRequest(415)
	if (Number(request.headers.get('Content-Length') ?? 0) > limits.bodyBytes) throw new BadRequest(413)
	const formData = new FormData()
	const staged = new Set<string>()
	stagedByForm.set(formData, staged)
	try {
		for (const entry of await withinFormLimit(await parse(request, contentType, staged, limits), limits.fileBytes, staged)) if (entry) formData.append(...entry)
		return formData
	} catch (error) {
		await discardStaged(staged)
		throw error
	}
}

/**
 * The body of every form without files (every action but the five upload forms), read with the
 * same parser and limits: at most MAX_PLAIN_BODY_BYTES, and a file in it is a 413.
 */
export function readForm(request: Request): Promise<FormData> {
	return readFormWithFiles(request, WITHOUT_FILES)
}

/** A body as text (JSON, a webhook's signed payload), at most `maxBytes`; over it a 413, unreadable a 400. */
export async function readText(request: Request, maxBytes = MAX_PLAIN_BODY_BYTES): Promise<string> {
	if (Number(request.headers.get('Content-Length') ?? 0) > maxBytes) throw new BadRequest(413)
	if (!request.body) return ''
	const chunks: Uint8Array[] = []
	let total = 0
	const reader = request.body.getReader()
	try {
		for (;;) {
			const { done, value } = await reader.read()
			if (done) break
			total += value.byteLength
			if (total > maxBytes) throw new BadRequest(413)
			chunks.push(value)
		}
	} catch (error) {
		throw error instanceof BadRequest ? error : new BadRequest(400)
	} finally {
		reader.releaseLock()
	}
	return new TextDecoder().decode(Buffer.concat(chunks))
}

type Entry = [string, string | File] | null

/**
 * The files in the body's order until they pass `maxBytes` together; from the one that passes
 * it on, each is dropped (its staged file deleted) and marked for its field.
 */
async function withinFormLimit(entries: Entry[], maxBytes: number, staged: Set<string>): Promise<Entry[]> {
	let total = 0
	const dropped: string[] = []
	const kept = entries.map((entry): Entry => {
		if (!entry || !(entry[1] instanceof StagedFile)) return entry
		const file = entry[1]
		total += file.size
		if (total <= maxBytes) return entry
		dropped.push(file.stagedKey)
		staged.delete(file.stagedKey)
		return [entry[0], new File([], file.name, { type: OVER_FORM_TYPE })]
	})
	await discardStaged(dropped)
	return kept
}

async function parse(request: Request, contentType: string, staged: Set<string>, limits: FormLimits): Promise<Entry[]> {
	let parser: busboy.Busboy
	try {
		parser = busboy({
			headers: { 'content-type': contentType },
			// Browsers send file names as raw UTF-8; the path some add (C:\fakepath\) is dropped.
			defParamCharset: 'utf8',
			limits: {
				fieldNameSize: MAX_FIELD_NAME_BYTES,
				fieldSize: MAX_FIELD_BYTES,
				fields: MAX_FIELDS,
				fileSize: MAX_UPLOAD_BYTES,
				files: limits.files,
				parts: MAX_FIELDS + limits.files,
				headerPairs: 20,
			},
		})
	} catch {
		throw new BadRequest(400) // a multipart type without a boundary
	}
	// In the body's order, so repeated fields keep theirs; files settle as they are written.
	const entries: Array<Promise<Entry>> = []
	let writeError: Error | null = null
	const refuse = (status: 400 | 413) => parser.destroy(new BadRequest(status))
	parser.on('field', (name, value, info) => {
		if (info.nameTruncated || info.valueTruncated) return refuse(413)
		entries.push(Promise.resolve([name, value]))
	})
	parser.on('file', (name, stream, info) => {
		// Browsers send a quote in a file name as %22 (HTML's multipart encoding).
		const filename = (info.filename ?? '').replace(/%22/g, '"')
		const entry = stageFile(name, stream, filename, info.mimeType, staged)
		entry.catch((error: unknown) => {
			// A staging write that failed (a full disk) stops the parse, or busboy would wait for
			// it forever; that is the server's failure, not the body's.
			if (error instanceof Error && 'syscall' in error) parser.destroy((writeError ??= error))
		})
		entries.push(entry)
	})
	// A broken body can make busboy report more than once, after the pipeline has let go: the
	// first report counts, a later one must not become an uncaught exception.
	parser.on('error', () => undefined)
	parser.on('filesLimit', () => refuse(413))
	parser.on('fieldsLimit', () => refuse(413))
	parser.on('partsLimit', () => refuse(413))

	const parsed = new Promise<void>((resolve, reject) => {
		parser.on('close', resolve)
		parser.on('error', reject)
	})
	parsed.catch(() => undefined) // read below, once the body has been drained
	const fed = await feed(request.body, parser, limits.bodyBytes)
	try {
		if (fed) throw fed
		await parsed
	} catch (error) {
		await Promise.allSettled(entries)
		if (writeError) throw writeError
		throw error instanceof BadRequest ? error : new BadRequest(400)
	}
	return Promise.all(entries)
}

/**
 * Writes the body into the parser, at most `maxBytes` (a missing or false Content-Length does not
 * matter). Once the parser has refused the form, reading stops but the body is not cancelled:
 * that would destroy the connection before the answer is written, and the visitor would see a
 * reset instead of the translated 400 or 413. The server reads and drops the rest once the answer
 * is out (server/app.ts). Returns what stopped it.
 */
async function feed(body: ReadableStream<Uint8Array> | null, parser: busboy.Busboy, maxBytes: number): Promise<BadRequest | null> {
	if (!body) {
		parser.end()
		return null
	}
	let refused: BadRequest | null = null
	let total = 0
	const reader = body.getReader()
	try {
		for (;;) {
			const { done, value } = await reader.read()
			if (done) break
			total += value.byteLength
			if (parser.destroyed) break
			if (total > maxBytes) {
				refused = new BadRequest(413)
				parser.destroy(refused)
				break
			}
			if (!parser.write(value)) await drained(parser)
		}
	} catch {
		// The client went away mid-body: nothing to answer, the parse fails below.
		refused ??= new BadRequest(400)
	} finally {
		reader.releaseLock()
	}
	if (!refused && !parser.destroyed) parser.end()
	return refused
}

/** Resolves when the parser wants more, or has stopped (then the rest of the body is dropped). */
function drained(parser: busboy.Busboy) {
	return new Promise<void>((resolve) => {
		const done = () => {
			parser.off('drain', done)
			parser.off('close', done)
			parser.off('error', done)
			resolve()
		}
		parser.on('drain', done)
		parser.on('close', done)
		parser.on('error', done)
	})
}

async function stageFile(name: string, stream: Readable, filename: string, type: string, staged: Set<string>): Promise<Entry> {
	const key = newStagingKey('upload')
	staged.add(key)
	stream.on('error', () => undefined) // the parser's own error decides the answer
	let truncated = false
	stream.on('limit', () => (truncated = true))
	const size = await writeStaged(key, stream)
	if (truncated || size === 0) {
		await discardStaged([key])
		staged.delete(key)
		if (truncated) return [name, new File([], filename, { type: TOO_LARGE_TYPE })]
		// An empty file input sends a part without a name or bytes: no file chosen.
		return filename ? [name, new File([], filename, { type })] : null
	}
	// A Blob backed by the staged file: its bytes stay on disk.
	return [name, new StagedFile(await openAsBlob(stagedPath(key)), filename, type, key)]
}

/** Deletes the form's staged files that were not moved into the store. */
export async function discardStagedFiles(formData: FormData) {
	const staged = stagedByForm.get(formData)
	if (staged) await discardStaged(staged)
}

/** The staged files of a form, to be discarded with it. */
function stagedOf(formData: FormData) {
	let staged = stagedByForm.get(formData)
	if (!staged) stagedByForm.set(formData, (staged = new Set()))
	return staged
}

function track(formData: FormData, file: PreparedUpload) {
	const staged = stagedOf(formData)
	staged.add(file.stagedKey)
	if (file.stagedThumbnailKey) staged.add(file.stagedThumbnailKey)
}

/** A file of the form as prepareUpload's input; one not read by readFormWithFiles is staged first. */
async function stagedInput(formData: FormData, file: File) {
	if (file instanceof StagedFile) return { stagedKey: file.stagedKey }
	if (file.size > MAX_UPLOAD_BYTES) throw new UploadRejected('tooLarge')
	const key = newStagingKey('upload')
	stagedOf(formData).add(key)
	await writeStaged(key, Readable.fromWeb(file.stream() as NodeReadableStream<Uint8Array>))
	return { stagedKey: key }
}

/** A file field of a form: what its files are for, and how many it takes. */
export type UploadField = { purpose: UploadPurpose; max: number }

/**
 * The files of a form's file fields, each checked by content for its purpose (images re-encoded),
 * with the files held from the form's earlier sending that the form still lists (the owner's own,
 * of that purpose: any other id is ignored). A refused file is an error for its field; the files
 * that passed are kept. Too many files is an error, and the new ones are dropped; for a field of
 * one file, a new file replaces the held one. What is prepared stays staged until a transaction
 * stores it (savePreparedUpload) or `hold` keeps it, or the form is discarded.
 */
export async function readFormUploads<F extends string>(formData: FormData, ownerId: string | null, fields: Record<F, UploadField>) {
	const files = {} as Record<F, FormUpload[]>
	const errors: Partial<Record<F, string[]>> = {}
	const kept = {} as Record<F, { held: Upload[]; fresh: PreparedUpload[] }>
	let tooLarge = false
	for (const field of Object.keys(fields) as F[]) {
		const { purpose, max } = fields[field]
		const chosen = formData.getAll(field).filter((value): value is File => value instanceof File && (value.size > 0 || value.type === TOO_LARGE_TYPE || value.type === OVER_FORM_TYPE))
		const heldIds = [...new Set(formData.getAll(heldFieldName(field)).flatMap((value) => decodeId(String(value)) ?? []))]
		// Without an owner (a widget's visitor, decision 0153) no file is held from an earlier sending.
		let held = ownerId ? await findHeldUploads(ownerId, purpose, heldIds) : []
		if (max === 1 && chosen.length > 0) held = []
		const fresh: PreparedUpload[] = []
		if (held.length + chosen.length > max) errors[field] = [message('common:upload.tooMany', { max })]
		else {
			for (const file of chosen) {
				try {
					if (file.type === TOO_LARGE_TYPE) throw new UploadRejected('tooLarge')
					if (file.type === OVER_FORM_TYPE) throw new UploadRejected('formTooLarge')
					const upload = await prepareUpload({ ...(await stagedInput(formData, file)), purpose, originalName: file.name })
					track(formData, upload)
					fresh.push(upload)
				} catch (error) {
					if (!(error instanceof UploadRejected)) throw error
					errors[field] ??= [rejectionMessage(error)]
					if (error.reason === 'tooLarge' || error.reason === 'formTooLarge') tooLarge = true
				}
			}
		}
		kept[field] = { held, fresh }
		files[field] = [...held.map((upload) => ({ heldUploadId: upload.id, purpose })), ...fresh]
	}
	return {
		files,
		errors,
		ok: Object.keys(errors).length === 0,
		/** The status of an answer that refuses the form: 413 when a file was too large, else 400. */
		status: (tooLarge ? 413 : 400) as 400 | 413,
		/**
		 * For an answer that refuses the form: holds the new files that passed, for the form's next
		 * sending, and lists every held file by field for the form to show.
		 */
		hold: async (): Promise<Record<F, HeldFile[]>> => {
			const listed = {} as Record<F, HeldFile[]>
			for (const field of Object.keys(kept) as F[]) {
				const { held, fresh } = kept[field]
				const rows = [...held]
				for (const file of fresh) rows.push(await holdUpload(file, ownerId ?? null))
				listed[field] = rows.map((row) => ({ id: encodeId(row.id), name: row.originalName ?? '', image: row.mimeType.startsWith('image/') }))
			}
			return listed
		},
	}
}
