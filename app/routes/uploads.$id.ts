import { type LoaderFunctionArgs } from '@remix-run/node'
import { findViewableUpload, isPublicUpload } from '~/domain/uploads.server'
import { getOptionalUser } from '~/utils/auth.server'
import { decodeId } from '~/utils/public-id'
import { readStoredFile } from '~/utils/storage.server'

/** A stored file, to whoever may see it (app/domain/uploads.server.ts); anyone else gets 404. */
export async function loader({ params, request }: LoaderFunctionArgs) {
	const id = decodeId(params.id)
	if (!id) throw new Response('Not found', { status: 404 })
	const upload = await findViewableUpload(id, await getOptionalUser(request))
	if (!upload) throw new Response('Not found', { status: 404 })

	const wantsThumbnail = new URL(request.url).searchParams.get('variant') === 'thumb' && upload.thumbnailKey
	const key = wantsThumbnail ? upload.thumbnailKey! : upload.storageKey
	const body = await readStoredFile(key).catch(() => null)
	if (!body) throw new Response('Not found', { status: 404 })
	const extension = key.split('.').pop()
	return new Response(new Uint8Array(body), {
		headers: {
			'Content-Type': wantsThumbnail ? 'image/webp' : upload.mimeType,
			'Content-Length': String(body.byteLength),
			// A stored file never changes (a new upload gets a new id); private ones stay out of shared caches.
			'Cache-Control': isPublicUpload(upload) ? 'public, max-age=31536000, immutable' : 'private, max-age=3600',
			'Content-Disposition': `${upload.mimeType === 'application/pdf' ? 'attachment' : 'inline'}; filename="${upload.purpose}.${extension}"`,
			'X-Content-Type-Options': 'nosniff',
			// Public files (logos, photos) appear on partner sites through the widgets (issue 9).
			'Cross-Origin-Resource-Policy': isPublicUpload(upload) ? 'cross-origin' : 'same-origin',
		},
	})
}
