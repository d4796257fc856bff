import { Link, type LinkProps } from 'react-router'
import { Icon, type IconName } from './icon'

/**
 * A link that looks like a button: the pages' calls to action ("Add a vehicle") and their way back.
 * One place for the classes, so that a page says what the link is, not how it is drawn.
 */
export function ButtonLink({
	kind = 'primary',
	size,
	icon,
	className,
	children,
	...props
}: LinkProps & { kind?: 'primary' | 'ghost' | 'accent' | 'light'; size?: 'small' | 'large'; icon?: IconName }) {
	const classes = ['button', `button--${kind}`, size ? `button--${size}` : null, className].filter(Boolean).join(' ')
	return (
		<Link {...props} className={classes}>
			{icon ? <Icon name={icon} /> : null}
			{children}
		</Link>
	)
}
