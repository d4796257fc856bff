import { type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { type Readable } from 'node:stream'
import { fileToServe, findViewableUpload, isPublicUpload } from '~/uploads/access.server'
import { getOptionalUser } from '~/utils/auth.server'
import { methodNotAllowed } from '~/utils/failures.server'
import { openStoredFile } from '~/uploads/file-store.server'
import { decodeId } from '~/utils/public-id'
import { parseUploadQuery } from '~/uploads/upload-url'

/** A stored file, to whoever may see it (app/uploads/access.server.ts); anyone else gets 404. */
export async function loader({ params, request }: LoaderFunctionArgs) {
	const id = decodeId(params.id)
	if (!id) throw new Response('Not found', { status: 404 })
	const upload = await findViewableUpload(id, await getOptionalUser(request))
	if (!upload) throw new Response('Not found', { status: 404 })

	const asked = parseUploadQuery(new URL(request.url).searchParams)
	const wanted = asked && fileToServe(upload, asked)
	if (!wanted) throw new Response('Not found', { status: 404 })
	const file = await openStoredFile(wanted.key)
	if (!file) throw new Response('Not found', { status: 404 })
	const extension = wanted.key.split('.').pop()
	return new Response(streamOnDemand(file.stream), {
		headers: {
			'Content-Type': wanted.mimeType,
			'Content-Length': String(file.size),
			'Cache-Control': cacheControl(isPublicUpload(upload), wanted.versioned),
			'Content-Disposition': `${upload.mimeType === 'application/pdf' ? 'attachment' : 'inline'}; filename="${upload.purpose}.${extension}"`,
			// Public files (logos, photos) appear on partner sites through the widgets (issue 9).
			'Cross-Origin-Resource-Policy': isPublicUpload(upload) ? 'cross-origin' : 'same-origin',
		},
	})
}

/**
 * A file never changes under its id (a new upload gets a new id), but one taken down must not live
 * on in caches for long: a day for public files in shared caches, an hour in the viewer's own
 * cache for private ones. A versioned copy (its URL names the file's hash) is kept by the browser
 * for a year without asking again (decision 0093); shared caches still give it up after a day.
 */
function cacheControl(isPublic: boolean, versioned: boolean) {
	if (!versioned) return isPublic ? 'public, max-age=86400' : 'private, max-age=3600'
	return isPublic ? 'public, max-age=31536000, s-maxage=86400, immutable' : 'private, max-age=3600, immutable'
}

export const action = ({ request }: ActionFunctionArgs) => methodNotAllowed(request, 'GET')

/**
 * The file in chunks, opened on the first read: a body nobody reads (a HEAD request) opens
 * nothing, and a reader that goes away closes the file.
 */
function streamOnDemand(open: () => Readable): ReadableStream<Uint8Array> {
	let chunks: AsyncIterator<Buffer> | null = null
	return new ReadableStream<Uint8Array>(
		{
			async pull(controller) {
				chunks ??= (open() as AsyncIterable<Buffer>)[Symbol.asyncIterator]()
				const next = await chunks.next()
				if (next.done) controller.close()
				else controller.enqueue(next.value)
			},
			async cancel() {
				await chunks?.return?.()
			},
		},
		{ highWaterMark: 0 },
	)
}
