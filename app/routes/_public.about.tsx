import { type LoaderFunctionArgs } from 'react-router'
import { ContentPage, contentPageMeta } from '~/components/content-page'
import { loadContentPage } from '~/domain/site/content.server'

// Content page, slug about-us (spec §2).
export const loader = ({ request }: LoaderFunctionArgs) => loadContentPage(request, 'about-us')

export const meta = contentPageMeta

export default ContentPage
