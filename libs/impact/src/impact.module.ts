import { Module } from '@nestjs/common';
import { DeadCodeService } from './dead-code.service';
import { ImpactService } from './impact.service';
import { ReviewService } from './review.service';
import { HistoryModule } from '@scopegraph/history';

@Module({
  imports: [HistoryModule],
  providers: [ImpactService, DeadCodeService, ReviewService],
  exports: [ImpactService, DeadCodeService, ReviewService, HistoryModule],
})
export class ImpactModule {}
