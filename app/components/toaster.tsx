import { useRouteLoaderData } from 'react-router'
import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react'
import { useTranslation } from '~/i18n/translation'
import { type RootLoaderData } from '~/root-data'
import { type Toast } from '~/utils/toast'

type ToastOptions = { type: Toast['type']; toastId?: string }

/**
 * react-toastify, fetched the first time a toast is shown: most pages never show one, and it is
 * 6.6 KB gzipped off every page's first load (issue 18, goal 3). Toasts asked for before its
 * container mounts wait in the library's queue.
 */
const importLibrary = () => import('react-toastify/unstyled')
let library: ReturnType<typeof importLibrary> | null = null
const loadLibrary = () => (library ??= importLibrary())

let wanted = false
const subscribers = new Set<() => void>()
const subscribe = (onChange: () => void) => {
	subscribers.add(onChange)
	return () => subscribers.delete(onChange)
}

/** The page's toasts, for any script of the portal. */
export const toasts = {
	show(message: string, options: ToastOptions) {
		if (!wanted) {
			wanted = true
			for (const onChange of subscribers) onChange()
		}
		void loadLibrary().then(({ toast }) => toast(message, options))
	},
	/** Closes the toasts shown; none were if the library was never fetched. */
	dismiss() {
		void library?.then(({ toast }) => toast.dismiss())
	},
}

const Container = lazy(() =>
	loadLibrary().then(({ ToastContainer, Slide }) => ({
		default: () => <ToastContainer position="top-right" autoClose={5000} newestOnTop closeOnClick transition={Slide} />,
	})),
)

/**
 * Shows the flashed message of this page: a react-toastify toast with JavaScript on, and the
 * same message rendered by the server inside <noscript> with it off (it fades after 5 s by CSS).
 */
export function Toaster({ toast }: { toast: Toast | null }) {
	const { t, language: shown } = useTranslation()
	const message = toast ? t(toast.key, toast.params) : null
	// After a language change the page's language arrives before the browser's dictionaries:
	// wait, so the message is shown in the new language.
	const language = useRouteLoaderData<RootLoaderData>('root')?.language
	const ready = !language || shown === language
	const mounted = useSyncExternalStore(subscribe, () => wanted, () => false)

	useEffect(() => {
		if (toast && message && ready) toasts.show(message, { type: toast.type, toastId: toast.id })
	}, [toast, message, ready])

	return (
		<>
			{mounted ? (
				<Suspense fallback={null}>
					<Container />
				</Suspense>
			) : null}
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
