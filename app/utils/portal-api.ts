import { useNavigate } from 'react-router'
import { useCallback, useEffect, useRef } from 'react'
import { useAuthenticityToken } from 'remix-utils/csrf/react'
import { toasts } from '~/components/toaster'

export type ApiAnswer<T> = { ok: true; body: T } | { ok: false; status: number; message: string }

/**
 * The portal's own scripts call the JSON API with the session cookie and the page's CSRF token.
 * A 401 runs the login-required flow of spec §4 (dismiss toasts, warn, go home, where the root
 * loader drops the dead session) and answers null; any other refusal comes back with its message.
 */
export function usePortalApi() {
	const csrf = useAuthenticityToken()
	const navigate = useNavigate()
	// Stable across renders, so pollers built on it are not restarted by every navigation.
	const latest = useRef({ csrf, navigate })
	useEffect(() => {
		latest.current = { csrf, navigate }
	})

	return useCallback(async <T,>(path: string, fields: Record<string, string> = {}): Promise<ApiAnswer<T> | null> => {
		const body = new FormData()
		body.set('csrf', latest.current.csrf)
		for (const [key, value] of Object.entries(fields)) body.set(key, value)
		let response: Response
		try {
			// The API answers in the language asked for; the page's own, not the browser's.
			const headers = { 'Accept': 'application/json', 'Accept-Language': document.documentElement.lang || 'et' }
			response = await fetch(path, { method: 'POST', body, credentials: 'same-origin', headers })
		} catch {
			return { ok: false, status: 0, message: '' }
		}
		const payload = (await response.json().catch(() => ({}))) as T & { message?: string }
		if (response.status === 401) {
			toasts.dismiss()
			toasts.show(payload.message ?? '', { type: 'warning', toastId: 'login-required' })
			latest.current.navigate('/')
			return null
		}
		if (!response.ok) return { ok: false, status: response.status, message: payload.message ?? '' }
		return { ok: true, body: payload }
	}, [])
}
