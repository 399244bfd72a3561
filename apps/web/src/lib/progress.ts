import NProgress from 'nprogress';
import 'nprogress/nprogress.css';
import { progressOptions } from '../config/constants';

NProgress.configure({ ...progressOptions, showSpinner: false });

/** Navigation progress: started before each navigation, finished after it. */
export const progress = {
  start: () => {
    if (!NProgress.isStarted()) NProgress.start();
  },
  done: () => {
    NProgress.done();
  },
};
