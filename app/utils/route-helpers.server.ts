import { DomainError } from '~/domain/errors'
import { decodeId } from './public-id'

/** The id in a route's {slug}/{id}; a value that does not decode is a 404. */
export function idParam(value: string | undefined): string {
	const id = decodeId(value)
	if (!id) throw new Response('Not found', { status: 404 })
	return id
}

/** A domain "not found" (missing, or someone else's) as the 404 page. */
export async function or404<T>(promise: Promise<T>): Promise<T> {
	try {
		return await promise
	} catch (error) {
		if (error instanceof DomainError && error.status === 404) throw new Response('Not found', { status: 404 })
		throw error
	}
}

/** A path inside the portal to return to, never another site. */
export function safeReturnTo(value: string | null | undefined, fallback: string): string {
	return value && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\') ? value : fallback
}

/** A signed-in workshop owner and the workshop the domain functions act as. */
export async function requireWorkshop(request: Request) {
	const { requireUser } = await import('./auth.server')
	const user = await requireUser(request, { role: 'workshop' })
	if (!user.workshop) throw new Response('Not found', { status: 404 })
	return { user, actor: { workshopId: user.workshop.id, userId: user.id, workshopName: user.workshop.workshopName } }
}
