import { Body, Button, Container, Head, Heading, Hr, Html, Img, Link, Preview, Section, Text } from '@react-email/components'
import { render } from '@react-email/render'
import { Fragment } from 'react'
import { addressFor } from '~/domain/site/site'
import { getFixedT } from '~/i18n/i18n.server'
import { type EmailContent, type EmailFrame, type EmailLink } from './email-content'

const colors = { ink: '#14213d', muted: '#5b6474', line: '#e3e7ee', accent: '#1d4ed8', page: '#f4f6fa' }

/**
 * Every e-mail's one template (react-email, rendered on the server; docs/decisions/0077): the
 * site's name and logo on top, a heading, a few paragraphs, optional facts and one button, then
 * the address block and, for e-mails one may turn off, the links to the preferences and to
 * unsubscribe. The plain-text part is rendered from the same element (`renderEmailParts`). What an
 * e-mail says is typed in email-content.ts; email-templates.server.ts loads this module with the first e-mail.
 */
export function AutohubEmail({ frame, content }: { frame: EmailFrame; content: EmailContent }) {
	const t = getFixedT(frame.language, 'common')
	const { site, appUrl } = frame
	const address = addressFor(site, frame.language)
	return (
		<Html lang={frame.language}>
			<Head />
			<Preview>{content.preview}</Preview>
			<Body style={{ margin: 0, padding: '24px 0', backgroundColor: colors.page, fontFamily: 'Arial, Helvetica, sans-serif', color: colors.ink }}>
				<Container style={{ maxWidth: 560, margin: '0 auto', backgroundColor: '#ffffff', border: `1px solid ${colors.line}`, borderRadius: 8, padding: 24 }}>
					<Section>
						{site.logo ? <Img src={`${appUrl}${site.logo}`} alt={site.appname} height={40} style={{ height: 40, width: 'auto' }} /> : null}
						<Text style={{ margin: site.logo ? '8px 0 0' : 0, fontSize: 18, fontWeight: 700 }}>{site.appname}</Text>
					</Section>
					<Heading as="h1" style={{ fontSize: 22, lineHeight: '28px', margin: '24px 0 12px' }}>
						{content.heading}
					</Heading>
					{content.paragraphs.map((paragraph, index) => (
						<Text key={index} style={{ fontSize: 15, lineHeight: '22px', margin: '0 0 12px' }}>
							{linkified(paragraph)}
						</Text>
					))}
					{content.facts?.length ? (
						<Section style={{ margin: '4px 0 12px' }}>
							{content.facts.map((fact) => (
								<Text key={fact.label} style={{ fontSize: 15, lineHeight: '22px', margin: '0 0 4px' }}>
									<strong>{fact.label}:</strong> {fact.value}
								</Text>
							))}
						</Section>
					) : null}
					{content.items?.length ? <LinkList items={content.items} /> : null}
					{content.more?.items.length ? (
						<>
							<Text style={{ fontSize: 16, lineHeight: '24px', margin: '16px 0 8px' }}>{content.more.lead}</Text>
							<LinkList items={content.more.items} />
						</>
					) : null}
					{content.action ? (
						<Section style={{ margin: '20px 0 8px' }}>
							<Button
								href={content.action.url}
								style={{ backgroundColor: colors.accent, color: '#ffffff', borderRadius: 6, padding: '12px 20px', fontSize: 15, fontWeight: 700, textDecoration: 'none' }}
							>
								{content.action.label}
							</Button>
						</Section>
					) : null}
					<Hr style={{ borderColor: colors.line, margin: '24px 0 16px' }} />
					<Text style={{ fontSize: 12, lineHeight: '18px', color: colors.muted, margin: '0 0 6px' }}>
						{site.appname}
						{address ? ` · ${address}` : ''}
						{site.siteEmail ? ` · ${site.siteEmail}` : ''}
						{site.sitePhoneNumber ? ` · ${site.countryCode} ${site.sitePhoneNumber}`.replace(/\s+/g, ' ') : ''}
					</Text>
					{frame.preferencesUrl && frame.unsubscribeUrl ? (
						<Text style={{ fontSize: 12, lineHeight: '18px', color: colors.muted, margin: 0 }}>
							{t('email.footer.why', { site: site.appname })}{' '}
							<Link href={frame.preferencesUrl} style={{ color: colors.muted, textDecoration: 'underline' }}>
								{t('email.footer.preferences')}
							</Link>
							{' · '}
							<Link href={frame.unsubscribeUrl} style={{ color: colors.muted, textDecoration: 'underline' }}>
								{t('email.footer.unsubscribe')}
							</Link>
						</Text>
					) : null}
				</Container>
			</Body>
		</Html>
	)
}

function LinkList({ items }: { items: EmailLink[] }) {
	return (
		<Section style={{ margin: '4px 0 12px' }}>
			{items.map((item) => (
				<Text key={item.url} style={{ fontSize: 15, lineHeight: '22px', margin: '0 0 8px' }}>
					{'• '}
					<Link href={item.url} style={{ color: colors.accent }}>
						{item.text}
					</Link>
				</Text>
			))}
		</Section>
	)
}

/**
 * A paragraph as written: its line breaks kept (a contact message's lines), its web addresses
 * made links (the account and billing e-mails write theirs into the text).
 */
function linkified(paragraph: string) {
	return paragraph.split('\n').map((line, lineIndex) => (
		<Fragment key={lineIndex}>
			{lineIndex ? <br /> : null}
			{line.split(/(https?:\/\/[^\s]+)/).map((part, index) =>
				index % 2 ? (
					<Link key={index} href={part} style={{ color: colors.accent }}>
						{part}
					</Link>
				) : (
					part
				),
			)}
		</Fragment>
	))
}

/** The HTML and the plain-text part of an e-mail (email-templates.server.ts's `renderEmail` loads this module when first asked). */
export async function renderEmailParts(frame: EmailFrame, content: EmailContent): Promise<{ html: string; text: string }> {
	const element = <AutohubEmail frame={frame} content={content} />
	const [html, text] = await Promise.all([
		render(element),
		// Headings as written: html-to-text would shout them in capitals.
		render(element, {
			plainText: true,
			htmlToTextOptions: {
				selectors: [
					{ selector: 'h1', options: { uppercase: false } },
					// An address written in the text is written once, not followed by itself in brackets.
					{ selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
				],
			},
		}),
	])
	return { html, text }
}
