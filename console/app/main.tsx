import { render } from 'preact';
import { App } from './app.js';
import { LinkPageView } from './link-page-view.js';
import { linkPageOf } from './link-pages.js';
import './styles.css';

const linkPage = linkPageOf(location.pathname);
render(linkPage ? <LinkPageView page={linkPage} /> : <App />, document.getElementById('app')!);
