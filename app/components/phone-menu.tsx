import { useLocation } from 'react-router'
import { useEffect, useRef } from 'react'
import { Icon } from './icon'

const focusable = 'summary, a[href], button:not([disabled]), input:not([disabled]), select:not([disabled])'

/**
 * The menu button of a phone's header. A <details>, so it opens and closes without JavaScript;
 * with JavaScript, focus stays inside while it is open, Escape or a click outside closes it (focus
 * back on the button), and it closes after a navigation. Hidden on wide screens by the caller's CSS.
 */
export function PhoneMenu({ label, className, children }: { label: string; className?: string; children: React.ReactNode }) {
	const ref = useRef<HTMLDetailsElement>(null)
	const location = useLocation()

	useEffect(() => {
		if (ref.current) ref.current.open = false
	}, [location.key])

	useEffect(() => {
		const details = ref.current
		if (!details) return
		function closeOutside(event: MouseEvent) {
			if (details!.open && !details!.contains(event.target as Node)) details!.open = false
		}
		function onKeyDown(event: KeyboardEvent) {
			if (!details!.open) return
			if (event.key === 'Escape') {
				event.preventDefault()
				details!.open = false
				details!.querySelector('summary')?.focus()
				return
			}
			if (event.key !== 'Tab') return
			const items = [...details!.querySelectorAll<HTMLElement>(focusable)].filter((item) => item.offsetParent !== null)
			const first = items[0]
			const last = items[items.length - 1]
			if (event.shiftKey && document.activeElement === first) {
				event.preventDefault()
				last?.focus()
			} else if (!event.shiftKey && document.activeElement === last) {
				event.preventDefault()
				first?.focus()
			}
		}
		document.addEventListener('click', closeOutside)
		details.addEventListener('keydown', onKeyDown)
		return () => {
			document.removeEventListener('click', closeOutside)
			details.removeEventListener('keydown', onKeyDown)
		}
	}, [])

	return (
		<details ref={ref} className={['phone-menu', className].filter(Boolean).join(' ')}>
			<summary className="phone-menu__button">
				<Icon name="menu" />
				<span>{label}</span>
			</summary>
			<div className="phone-menu__panel">{children}</div>
		</details>
	)
}
