import { useRouteLoaderData } from '@remix-run/react'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { Slide, toast as showToast, ToastContainer } from 'react-toastify/unstyled'
import { type RootLoaderData } from '~/root'
import { type Toast } from '~/utils/toast'

/**
 * Shows the flashed message of this page: a react-toastify toast with JavaScript on, and the
 * same message rendered by the server inside <noscript> with it off (it fades after 5 s by CSS).
 */
export function Toaster({ toast }: { toast: Toast | null }) {
	const { t, i18n } = useTranslation()
	const message = toast ? t(toast.key, toast.params) : null
	// After a language change the page's language arrives before the browser's dictionaries:
	// wait, so the message is shown in the new language.
	const language = useRouteLoaderData<RootLoaderData>('root')?.language
	const ready = !language || i18n.language === language

	useEffect(() => {
		if (!toast || !message || !ready) return
		// A timeout lets the container mount first on the initial page load.
		const timer = setTimeout(() => showToast(message, { type: toast.type, toastId: toast.id }), 0)
		return () => clearTimeout(timer)
	}, [toast, message, ready])

	return (
		<>
			<ToastContainer position="top-right" autoClose={5000} newestOnTop closeOnClick transition={Slide} />
			{toast && message ? (
				<noscript>
					<div className={`flash flash--${toast.type}`} role={toast.type === 'error' ? 'alert' : 'status'}>
						{message}
					</div>
				</noscript>
			) : null}
		</>
	)
}
