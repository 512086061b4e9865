"""testrun"""
