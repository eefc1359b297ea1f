export * from './aggregate';
export * from './attribution';
export * from './git-log';
export * from './history.repository';
export * from './history.service';
export * from './history.module';
